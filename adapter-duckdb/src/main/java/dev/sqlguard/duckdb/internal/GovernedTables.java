package dev.sqlguard.duckdb.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.TableRef;

/**
 * The base tables of the file that a {@link RowPolicy} governs (multi-tenancy), each with its row filter
 * and column masks, checked once against the catalog when the engine starts. Every reference the
 * checker resolves to one of them runs as the derived table {@link Governed#derivedSelect}. Thread-safe.
 */
final class GovernedTables {
    /** No row policy: nothing is governed, nothing extra is refused. */
    static final GovernedTables NONE = new GovernedTables(Map.of(), false);

    /** One governed table: its filter (if any) and its masks by column name (lower case). */
    record Governed(DuckDbCatalog.Table table, Optional<RowFilter> filter, Map<String, ColumnMask> masks) {
        Governed {
            requireNonNull(table, "table is null");
            requireNonNull(filter, "filter is null");
            masks = Map.copyOf(masks);
        }

        /**
         * {@code SELECT <every column, in catalog order, quoted; a masked one as (<mask>) AS "column">
         * FROM "database"."schema"."table" [WHERE (<filter>)]}, each attribute placeholder of the filter
         * replaced by {@code marker.apply(attribute)}. The filter and mask texts are the operator's, spliced as written.
         */
        String derivedSelect(String database, Function<String, String> marker) {
            List<String> items = new ArrayList<>();
            for (DuckDbCatalog.Column column : table.columns()) {
                ColumnMask mask = masks.get(ParseTrees.fold(column.name()));
                String quoted = DuckDbCatalog.quote(column.name());
                items.add(mask == null ? quoted : "(" + mask.expression() + ") AS " + quoted);
            }
            String from = DuckDbCatalog.quote(database) + "." + DuckDbCatalog.quote(table.schema()) + "."
                    + DuckDbCatalog.quote(table.name());
            String where = filter.map(f -> " WHERE (" + f.render(marker) + ")").orElse("");
            return "SELECT " + String.join(", ", items) + " FROM " + from + where;
        }

        /** The attributes the filter takes, each once, in the order they first appear. */
        List<String> attributes() {
            return filter.map(f -> List.copyOf(f.attributes())).orElse(List.of());
        }
    }

    /** Derived tables parsed so far, by their text (which holds the table and its attributes' numbers). */
    private static final int MAX_PARSED = 1024;

    private final Map<String, Governed> byTable;
    private final boolean active;
    private final Map<String, JsonNode> parsed = new java.util.concurrent.ConcurrentHashMap<>();

    private GovernedTables(Map<String, Governed> byTable, boolean active) {
        this.byTable = Map.copyOf(byTable);
        this.active = active;
    }

    /**
     * The governed tables of {@code catalog} under {@code rows}, each checked against the catalog: the table
     * and each masked column must exist, and the derived table (attributes as parameters) must bind in
     * DuckDB, read only its own table and keep its shape. A failure stops the engine with
     * {@link ErrorCode#CONFIGURATION_ERROR} naming the table, never DuckDB's text.
     */
    static GovernedTables load(DuckDbCatalog catalog, RowPolicy rows, DuckDbParser parser) {
        if (rows.isEmpty()) {
            return NONE;
        }
        Map<String, Governed> byTable = new LinkedHashMap<>();
        for (DuckDbCatalog.Table table : catalog.allTables()) {
            TableRef ref = table.ref();
            TableRef qualified = table.qualifiedRef();
            if (!rows.governs(ref) && !rows.governs(qualified)) {
                continue;
            }
            Optional<RowFilter> filter = rows.filterOf(ref).or(() -> rows.filterOf(qualified));
            Map<String, ColumnMask> masks = new LinkedHashMap<>(rows.masksOf(qualified));
            masks.putAll(rows.masksOf(ref));
            byTable.put(key(table), new Governed(table, filter, masks));
        }
        requireEveryEntryResolves(catalog, rows, byTable);
        GovernedTables governed = new GovernedTables(byTable, true);
        for (Governed g : byTable.values()) {
            governed.check(g, catalog.database(), parser);
        }
        return governed;
    }

    private static void requireEveryEntryResolves(DuckDbCatalog catalog, RowPolicy rows, Map<String, Governed> byTable) {
        for (TableRef ref : rows.governedTables()) {
            String schema = ref.schema().orElse(rows.defaultSchema().orElse(""));
            Optional<DuckDbCatalog.Table> table = catalog.find("", schema, ref.table());
            if (table.isEmpty() || !byTable.containsKey(key(table.get()))) {
                throw configuration(ref.qualifiedName(), "names a table the database does not have");
            }
        }
        for (ColumnRef column : rows.masks().keySet()) {
            String schema = column.table().schema().orElse(rows.defaultSchema().orElse(""));
            DuckDbCatalog.Table table = catalog.find("", schema, column.table().table()).orElseThrow();
            if (table.columns().stream().noneMatch(c -> ParseTrees.fold(c.name()).equals(column.column()))) {
                throw configuration(column.table().qualifiedName(), "masks a column the table does not have");
            }
        }
    }

    /**
     * Binds the derived table once, its attributes as parameters ({@code $1, $2, ...}; as NULL literals when
     * DuckDB cannot serialize a plan whose parameter type only a value gives): exactly one SELECT of the
     * table's columns from the table alone, with the filter as its only clause, that DuckDB binds and whose
     * plan reads no other table.
     */
    private void check(Governed governed, String database, DuckDbParser parser) {
        String name = governed.table().ref().qualifiedName();
        List<String> attributes = governed.attributes();
        String text = governed.derivedSelect(database, a -> "$" + (attributes.indexOf(a) + 1));
        JsonNode parsed;
        try {
            parsed = parser.serialize(text);
        } catch (GuardException e) {
            throw configuration(name, "has a row filter or mask that does not parse");
        }
        if (parsed.path("error").asBoolean(true) || parsed.path("statements").size() != 1
                || !isDerivedSelect(parsed.path("statements").get(0).path("node"), governed)) {
            throw configuration(name, "has a row filter or mask that is not one expression over the table's columns");
        }
        JsonNode plan = bind(parser, text);
        if (plan.path("error").asBoolean(false) && "internal".equals(plan.path("error_type").asText(""))
                && !attributes.isEmpty()) {
            plan = bind(parser, governed.derivedSelect(database, a -> "NULL"));
        }
        if (plan.path("error").asBoolean(true) || !readsOnly(plan, governed.table())) {
            throw configuration(name, "has a row filter or mask that does not bind against the table's own columns");
        }
        if (governed.filter().isPresent() && !isBoolean(governed, database, parser)) {
            // DuckDB would cast another type to BOOLEAN row by row (WHERE region): a filter must be a predicate
            throw configuration(name, "has a row filter that is not a predicate (its type is not BOOLEAN)");
        }
    }

    /** Whether DuckDB binds the filter alone, over the table, as a BOOLEAN expression. */
    private static boolean isBoolean(Governed governed, String database, DuckDbParser parser) {
        List<String> attributes = governed.attributes();
        RowFilter filter = governed.filter().orElseThrow();
        String from = " FROM " + DuckDbCatalog.quote(database) + "." + DuckDbCatalog.quote(governed.table().schema()) + "."
                + DuckDbCatalog.quote(governed.table().name());
        JsonNode plan = bind(parser, "SELECT (" + filter.render(a -> "$" + (attributes.indexOf(a) + 1)) + ")" + from);
        if (plan.path("error").asBoolean(false) && "internal".equals(plan.path("error_type").asText(""))) {
            plan = bind(parser, "SELECT (" + filter.render(a -> "NULL") + ")" + from);
        }
        JsonNode projection = plan.path("plans").path(0);
        return !plan.path("error").asBoolean(true) && "LOGICAL_PROJECTION".equals(projection.path("type").asText())
                && projection.path("expressions").size() == 1
                && "BOOLEAN".equals(projection.path("expressions").get(0).path("return_type").path("id").asText());
    }

    private static JsonNode bind(DuckDbParser parser, String text) {
        try {
            return parser.plan(text);
        } catch (GuardException e) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode().put("error", true);
        }
    }

    /** Whether a parsed query node is exactly the derived select of {@code governed}: its columns from its table, filtered. */
    static boolean isDerivedSelect(JsonNode node, Governed governed) {
        JsonNode from = node.path("from_table");
        boolean filtered = governed.filter().isPresent();
        JsonNode where = node.get("where_clause");
        return "SELECT_NODE".equals(node.path("type").asText()) && node.path("modifiers").isEmpty()
                && node.path("cte_map").path("map").isEmpty()
                && node.path("select_list").size() == governed.table().columns().size()
                && node.path("group_expressions").isEmpty() && node.path("group_sets").isEmpty()
                && ParseTrees.isNullField(node, "having") && ParseTrees.isNullField(node, "qualify")
                && ParseTrees.isNullField(node, "sample")
                && filtered == (where != null && !where.isNull())
                && "BASE_TABLE".equals(from.path("type").asText()) && from.path("alias").asText("").isEmpty()
                && from.path("column_name_alias").isEmpty() && ParseTrees.isNullField(from, "sample")
                && ParseTrees.isNullField(from, "at_clause")
                && governed.table().schema().equalsIgnoreCase(from.path("schema_name").asText(""))
                && governed.table().name().equalsIgnoreCase(from.path("table_name").asText(""));
    }

    /** Whether every scan of a bound plan reads {@code table} and nothing else (a table function included). */
    private static boolean readsOnly(JsonNode plan, DuckDbCatalog.Table table) {
        List<JsonNode> gets = new ArrayList<>();
        PlanScans.collect(plan.path("plans"), (get, parent) -> gets.add(get));
        if (gets.size() != 1) {
            return false;
        }
        return PlanScans.isScanOf(gets.get(0), table);
    }

    private static GuardException configuration(String table, String what) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR,
                "The row policy of table " + SafeText.identifier(table) + " " + what + ".");
    }

    private static String key(DuckDbCatalog.Table table) {
        return ParseTrees.fold(table.schema()) + "\u0000" + ParseTrees.fold(table.name());
    }

    /**
     * DuckDB's parse of {@code governed}'s derived select with each attribute as {@code $number} (a copy the
     * caller may change), checked to be exactly that select. Parses are kept by text: a table's text depends
     * only on the numbers its attributes take, so a few per table serve every query.
     */
    JsonNode derivedTree(Governed governed, String database, Map<String, Integer> numbers, DuckDbParser parser) {
        String text = governed.derivedSelect(database, a -> "$" + numbers.get(a));
        JsonNode node = parsed.get(text);
        if (node == null) {
            JsonNode tree = parser.serialize(text);
            node = tree.path("statements").path(0).path("node");
            if (tree.path("error").asBoolean(true) || tree.path("statements").size() != 1 || !isDerivedSelect(node, governed)) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "A row filter could not be applied.");
            }
            if (parsed.size() >= MAX_PARSED) {
                parsed.clear();
            }
            parsed.put(text, node);
        }
        return node.deepCopy();
    }

    /** Whether a row policy is in force (it may govern no table of this file only if it is empty). */
    boolean active() {
        return active;
    }

    /** The governance of a catalog table, if the policy governs it. */
    Optional<Governed> of(DuckDbCatalog.Table table) {
        return Optional.ofNullable(byTable.get(key(table)));
    }

    /** Whether {@code table} is filtered (not only masked). */
    boolean filters(DuckDbCatalog.Table table) {
        return of(table).map(g -> g.filter().isPresent()).orElse(false);
    }

    /** The governed table a folded name (a WITH query's) is named like, if any. */
    Optional<String> namedLike(String foldedName) {
        for (Governed g : byTable.values()) {
            if (ParseTrees.fold(g.table().name()).equals(foldedName)) {
                return Optional.of(g.table().name());
            }
        }
        return Optional.empty();
    }

    /** Every governed table's name, for messages and tests. */
    Set<String> names() {
        Set<String> out = new TreeSet<>();
        byTable.values().forEach(g -> out.add(g.table().ref().qualifiedName()));
        return out;
    }
}
