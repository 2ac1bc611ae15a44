package dev.sqlguard.postgresql.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
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
 * Reads PostgreSQL's own resolution of a rendered statement. {@code EXPLAIN (VERBOSE, FORMAT JSON)}
 * names, for every scan of a base relation, its schema, name and alias, and every node's output,
 * filter, join, sort and group expressions with each column written {@code alias.column}. This class
 * collects the base columns (and whole rows) the plan reads, so that the validator can refuse a
 * statement whose server-side reading reaches a column its checked tree did not.
 *
 * <p>A scan whose output is its relation's whole physical row, column by column, is a physical
 * target list (PostgreSQL skips the projection and lets the parent pick columns): those columns are
 * carried, not read, and the parent's expressions say which ones are used. Measured on PostgreSQL 15:
 * {@code SELECT count(*) FROM t WHERE t.a = 1} under an aggregate lists every column of {@code t}.
 */
final class ExplainCheck {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fields of a plan node that hold expressions. */
    private static final Set<String> EXPRESSION_FIELDS = Set.of("Output", "Filter", "Index Cond", "Recheck Cond", "TID Cond",
            "Order By", "Join Filter", "Hash Cond", "Merge Cond", "Sort Key", "Group Key", "Presorted Key", "One-Time Filter",
            "Cache Key", "Partial Sort Key", "Run Condition", "Hash Key", "Group Keys");
    private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final Pattern REFERENCE = Pattern.compile(
            "(?<![A-Za-z0-9_$\".])(\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)\\.(\\*|\"(?:[^\"]|\"\")+\"|[A-Za-z_][A-Za-z0-9_$]*)");

    private ExplainCheck() {
    }

    /**
     * The base relations and columns the plan reads; incomplete when it reads a whole row.
     *
     * @param physicalColumns every column of a relation, in order, or null when it is unknown
     */
    static EngineReading read(String explainJson, Function<TableRef, List<String>> physicalColumns) {
        List<JsonNode> nodes = nodes(parse(explainJson));
        Map<String, TableRef> aliases = new HashMap<>();
        Set<TableRef> relations = new LinkedHashSet<>();
        for (JsonNode node : nodes) {
            JsonNode relation = node.get("Relation Name");
            if (relation != null) {
                String schema = text(node.get("Schema"));
                String alias = text(node.get("Alias"));
                if (schema == null || alias == null) {
                    throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's plan does not name a relation's schema.");
                }
                TableRef table = TableRef.of(schema, relation.asText());
                relations.add(table);
                if (aliases.put(alias, table) != null && !aliases.get(alias).equals(table)) {
                    throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's plan uses one alias for two relations.");
                }
            }
        }
        Set<ColumnRef> columns = new LinkedHashSet<>();
        boolean wholeRow = false;
        for (JsonNode node : nodes) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String field = it.next();
                if (!EXPRESSION_FIELDS.contains(field)) {
                    continue;
                }
                List<String> expressions = strings(node.get(field));
                if (field.equals("Output") && node.has("Relation Name") && physical(node, expressions, aliases, physicalColumns)) {
                    continue;
                }
                for (String expression : expressions) {
                    Matcher m = REFERENCE.matcher(STRING_LITERAL.matcher(expression).replaceAll("''"));
                    while (m.find()) {
                        TableRef table = aliases.get(unquote(m.group(1)));
                        if (table == null) {
                            continue; // a subquery, CTE or function scan: its columns come from scans listed here too
                        }
                        if (m.group(2).equals("*")) {
                            wholeRow = true;
                        } else {
                            columns.add(new ColumnRef(table, unquote(m.group(2))));
                        }
                    }
                }
            }
        }
        return new EngineReading(relations, columns, !wholeRow);
    }

    /**
     * Whether a scan's output is its relation's whole physical row, each column bare and in order. Each
     * entry is read back as PostgreSQL printed it ({@code quote_identifier} quotes names that are not
     * plain lower case and every keyword that is not unreserved, as in {@code t2."time"}), so no guess
     * about which names the server quotes enters the comparison.
     */
    private static boolean physical(JsonNode node, List<String> output, Map<String, TableRef> aliases,
                                    Function<TableRef, List<String>> physicalColumns) {
        String alias = text(node.get("Alias"));
        TableRef table = aliases.get(alias);
        List<String> all = table == null ? null : physicalColumns.apply(table);
        if (all == null || all.size() != output.size() || all.isEmpty()) {
            return false;
        }
        for (int i = 0; i < all.size(); i++) {
            Matcher m = REFERENCE.matcher(output.get(i));
            if (!m.matches() || !unquote(m.group(1)).equals(alias) || !unquote(m.group(2)).equals(all.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** The JSON of an {@code EXPLAIN (FORMAT JSON)} answer; INTERNAL_ERROR when it cannot be read. */
    static JsonNode parse(String explainJson) {
        try {
            return JSON.readTree(explainJson);
        } catch (java.io.IOException e) {
            throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's plan could not be read.", e);
        }
    }

    /** Every plan node of an answer ({@link #parse}), each before the nodes below it. */
    static List<JsonNode> nodes(JsonNode root) {
        List<JsonNode> nodes = new ArrayList<>();
        for (JsonNode entry : root) {
            collect(entry.get("Plan"), nodes);
        }
        return nodes;
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node == null || !node.isObject()) {
            return;
        }
        out.add(node);
        JsonNode plans = node.get("Plans");
        if (plans != null) {
            for (JsonNode child : plans) {
                collect(child, out);
            }
        }
    }

    private static List<String> strings(JsonNode value) {
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (value.isArray()) {
            value.forEach(v -> out.add(v.asText()));
        } else if (value.isTextual()) {
            out.add(value.asText());
        }
        return out;
    }

    private static String text(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static String unquote(String name) {
        if (name.startsWith("\"")) {
            return name.substring(1, name.length() - 1).replace("\"\"", "\"");
        }
        return name;
    }
}
