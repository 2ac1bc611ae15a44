package dev.sqlguard.trino.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.EngineReading;

/**
 * Reads Trino's own analysis of a rendered statement, from two EXPLAIN forms (measured on Trino 483):
 *
 * <ul>
 *   <li>{@code EXPLAIN (TYPE LOGICAL, FORMAT JSON)}: an object of plan fragments ({@code "0"},
 *   {@code "1"}, ...), each a tree of nodes with {@code name}, {@code descriptor}, {@code outputs},
 *   {@code details} and {@code children}. Every scan ({@code TableScan}, {@code ScanFilter},
 *   {@code ScanProject}, {@code ScanFilterProject}) names its table in {@code descriptor.table} as
 *   the connector prints it ({@code memory:s1.claims}, {@code tpch:tiny:lineitem}) and lists its
 *   column assignments in {@code details} as {@code symbol := handle}, where the handle is the
 *   connector's ({@code region:varchar(5)} on memory, {@code tpch:region} on tpch); projection
 *   assignments share the list ({@code expr := upper(region)}).</li>
 *   <li>{@code EXPLAIN (TYPE IO, FORMAT JSON)}: {@code inputTableColumnInfos}, one entry per table
 *   read with {@code table.catalog}, {@code table.schemaTable.schema}/{@code table} and the columns
 *   that carry a predicate the connector sees ({@code constraint.columnConstraints[].columnName}),
 *   which a connector that takes a filter over may not list as a scan assignment.</li>
 * </ul>
 *
 * A table the plan reads that is not a known table, a scan assignment that names no column of its
 * table or more than one, or a plan node of a kind that runs code of its own (a table function)
 * makes the reading unusable: the statement is refused.
 */
final class ExplainCheck {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LIMIT_SUFFIX = Pattern.compile(" limit=[0-9]{1,19}$");
    /**
     * A typed NULL as the plan prints a constant assignment ({@code marker_5 := null::boolean}); the
     * other marker, {@code boolean 'true'}, has a space and is never taken for a handle.
     */
    private static final Pattern CONSTANT = Pattern.compile("null::[a-z][a-z0-9_]*(\\([0-9, ]*\\))?");
    /** Plan nodes that run a table function or a remote query: never part of a checked statement. */
    private static final Set<String> FORBIDDEN_NODES = Set.of("TableFunction", "TableFunctionProcessor", "RemoteQuery", "TableWriter",
            "TableFinish", "TableExecute", "Merge", "MergeWriter", "TableDelete", "TableUpdate", "RefreshMaterializedView");

    private ExplainCheck() {
    }

    /**
     * The tables and columns the plan reads; incomplete when the plan could not be read fully.
     *
     * @param catalog the catalog every known table is in
     * @param physicalColumns every column of each known table, in order
     */
    static EngineReading read(String logicalJson, String ioJson, String catalog, Map<TableRef, List<String>> physicalColumns) {
        Set<TableRef> tables = new LinkedHashSet<>();
        Set<ColumnRef> columns = new LinkedHashSet<>();
        boolean complete = true;
        JsonNode logical = parse(logicalJson);
        List<JsonNode> nodes = new ArrayList<>();
        logical.forEach(fragment -> collect(fragment, nodes));
        if (nodes.isEmpty()) {
            complete = false;
        }
        for (JsonNode node : nodes) {
            String name = node.path("name").asText("");
            if (FORBIDDEN_NODES.contains(name)) {
                complete = false;
                continue;
            }
            JsonNode table = node.path("descriptor").get("table");
            if (table == null) {
                continue;
            }
            Optional<TableRef> ref = table(table.asText(), catalog, physicalColumns.keySet());
            if (ref.isEmpty()) {
                complete = false;
                continue;
            }
            tables.add(ref.get());
            List<String> all = physicalColumns.get(ref.get());
            for (JsonNode detail : node.path("details")) {
                String text = detail.asText();
                int arrow = text.indexOf(" := ");
                if (arrow < 0) {
                    continue;
                }
                String handle = text.substring(arrow + 4);
                Optional<String> column = column(handle, all);
                if (column.isEmpty() && (!handle.contains(":") || handle.contains(" ") || handle.contains("'"))) {
                    continue; // a projection over symbols, not a column handle (a column named with a space matched above)
                }
                if (column.isEmpty() && CONSTANT.matcher(handle).matches()) {
                    continue; // a constant the plan adds (INTERSECT and EXCEPT markers: null::boolean), no column of the table
                }
                if (column.isEmpty()) {
                    complete = false;
                } else {
                    columns.add(new ColumnRef(ref.get(), column.get()));
                }
            }
        }
        JsonNode io = parse(ioJson);
        for (JsonNode input : io.path("inputTableColumnInfos")) {
            JsonNode t = input.path("table");
            TableRef ref = TableRef.of(t.path("schemaTable").path("schema").asText(""), t.path("schemaTable").path("table").asText(""));
            if (!catalog.equals(t.path("catalog").asText()) || !physicalColumns.containsKey(ref)) {
                complete = false;
                continue;
            }
            tables.add(ref);
            for (JsonNode constraint : input.path("constraint").path("columnConstraints")) {
                String name = constraint.path("columnName").asText("");
                if (physicalColumns.get(ref).contains(name)) {
                    columns.add(new ColumnRef(ref, name));
                } else {
                    complete = false;
                }
            }
        }
        return new EngineReading(tables, columns, complete);
    }

    /**
     * The known table a scan descriptor names: {@code catalog:schema.table} or {@code catalog:schema:table},
     * followed by {@code " limit=N"} when the connector took a LIMIT over (the memory connector does
     * when the limit is below the table's row count: {@code memory:s1.claims limit=2}).
     */
    static Optional<TableRef> table(String descriptor, String catalog, Set<TableRef> known) {
        if (!descriptor.startsWith(catalog + ":")) {
            return Optional.empty();
        }
        String rest = descriptor.substring(catalog.length() + 1);
        Matcher limit = LIMIT_SUFFIX.matcher(rest);
        if (limit.find()) {
            rest = rest.substring(0, limit.start()); // a limit the connector took over reads no other column
        }
        for (TableRef t : known) {
            String schema = t.schema().orElse("");
            if (rest.equals(schema + "." + t.table()) || rest.equals(schema + ":" + t.table())) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    /**
     * The one column a handle names, or empty when none or several match: first as {@code name:type}
     * (the memory connector; a type has no colon), then as {@code connector:name} (tpch). Read in that
     * order, {@code kickoff:date} is the column {@code kickoff} even when the table has a column
     * {@code date}.
     */
    private static Optional<String> column(String handle, List<String> columns) {
        Set<String> nameType = new LinkedHashSet<>();
        Set<String> connectorName = new LinkedHashSet<>();
        for (String c : columns) {
            if (handle.startsWith(c + ":") && handle.indexOf(':', c.length() + 1) < 0) {
                nameType.add(c);
            }
            if (handle.endsWith(":" + c) && handle.lastIndexOf(':', handle.length() - c.length() - 2) < 0) {
                connectorName.add(c);
            }
        }
        if (nameType.size() == 1) {
            return Optional.of(nameType.iterator().next());
        }
        return nameType.isEmpty() && connectorName.size() == 1 ? Optional.of(connectorName.iterator().next()) : Optional.empty();
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node == null || !node.isObject()) {
            return;
        }
        out.add(node);
        for (JsonNode child : node.path("children")) {
            collect(child, out);
        }
    }

    /** The plan's JSON object; INTERNAL_ERROR when it cannot be read. */
    static JsonNode parse(String json) {
        try {
            JsonNode root = JSON.readTree(json);
            if (root == null || !root.isObject()) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's plan could not be read.");
            }
            return root;
        } catch (IOException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's plan could not be read.", e);
        }
    }
}
