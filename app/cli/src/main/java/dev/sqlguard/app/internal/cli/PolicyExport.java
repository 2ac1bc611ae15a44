package dev.sqlguard.app.internal.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ColumnMask;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.RowFilter;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;

/**
 * A source's row filters and masks ({@code policy.rows}, {@code policy.masks}) written for the engine
 * to enforce itself, as defence in depth: the engine then holds the same line for a client that
 * does not go through sqlguard.
 *
 * <ul>
 *   <li>{@link #postgresRls}: PostgreSQL row-level security. Each filtered table gets RLS enabled and
 *       forced and one {@code FOR SELECT} policy whose {@code :name} placeholders read the session
 *       setting {@code sqlguard.<name>} ({@code current_setting('sqlguard.<name>', true)}: NULL when
 *       unset, so a session without it sees no row). Masks cannot be expressed: RLS filters rows.</li>
 *   <li>{@link #trinoRules}: the {@code tables} rules of Trino's file-based access control, with
 *       {@code filter} and {@code columns[].mask}. Trino's rules have no per-query attribute, so a
 *       filter's attribute is either the Trino user ({@code current_user}) or a value fixed per user.</li>
 * </ul>
 * The filter and mask texts are the operator's SQL, written as configured (the configuration refused
 * comments, statement ends and subqueries in them).
 */
final class PolicyExport {
    /** The prefix of the PostgreSQL session settings the filters read: {@code sqlguard.<attribute>}. */
    static final String SETTING_PREFIX = "sqlguard.";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_]+");

    private PolicyExport() {
    }

    /**
     * PostgreSQL statements that enforce the filters with row-level security.
     *
     * @param schema the schema of a table named without one ({@code policy.defaultSchema}, else the
     *     source's {@code defaultSchema}); empty leaves such a name to the search path
     */
    static String postgresRls(String sourceId, RowPolicy rows, Optional<String> schema) {
        StringBuilder out = new StringBuilder();
        out.append("-- sqlguard policy export --source ").append(sourceId).append(" --format postgres-rls\n");
        out.append("-- Row-level security with the row filters of policy.rows. A filter's :name reads the session setting\n");
        out.append("-- sqlguard.<name>, which sqlguard's PostgreSQL executor sets for each call; a session without it sees no row.\n");
        out.append("-- Superusers and roles with BYPASSRLS are not filtered. FORCE filters the table's owner too: with only\n");
        out.append("-- these SELECT policies, writes to a filtered table by its owner (or any role without BYPASSRLS) are refused.\n");
        for (Map.Entry<TableRef, RowFilter> e : sorted(rows.filters())) {
            String table = qualified(e.getKey(), schema);
            String policy = quote("sqlguard_" + e.getKey().table());
            String predicate = e.getValue().render(name -> "current_setting('" + SETTING_PREFIX + name + "', true)");
            out.append("ALTER TABLE ").append(table).append(" ENABLE ROW LEVEL SECURITY;\n");
            out.append("ALTER TABLE ").append(table).append(" FORCE ROW LEVEL SECURITY;\n");
            out.append("DROP POLICY IF EXISTS ").append(policy).append(" ON ").append(table).append(";\n");
            out.append("CREATE POLICY ").append(policy).append(" ON ").append(table).append(" FOR SELECT USING (")
                    .append(predicate).append(");\n");
        }
        if (!rows.masks().isEmpty()) {
            out.append("-- Column masks are not exported: row-level security filters rows and cannot change a column's values.\n");
            out.append("-- These columns are masked by sqlguard only (restrict them with column privileges or a view):\n");
            for (ColumnRef column : rows.masks().keySet().stream().sorted(PolicyExport::compare).toList()) {
                out.append("--   ").append(column.table().qualifiedName()).append('.').append(column.column()).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * Trino file-based access-control rules ({@code {"tables": [...]}}) for the governed tables.
     *
     * @param users Trino user to the attribute value that user's rows carry; empty: each filter's
     *     attribute is the Trino user itself ({@code current_user}), in one rule for every user
     * @throws IllegalArgumentException when the filters take more than one attribute (a Trino rule
     *     can only express one: the user), or a user is listed with an invalid name
     */
    static String trinoRules(RowPolicy rows, String catalog, Optional<String> schema, Map<String, String> users) {
        Set<String> attributes = rows.attributes();
        if (attributes.size() > 1) {
            throw new IllegalArgumentException("the row filters take " + attributes.size() + " attributes ("
                    + String.join(", ", attributes) + "); a Trino rule can express one, the user");
        }
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        ObjectNode root = nodes.objectNode();
        ArrayNode rules = root.putArray("tables");
        List<TableRef> tables = rows.governedTables().stream().sorted(PolicyExport::compare).toList();
        if (users.isEmpty()) {
            for (TableRef table : tables) {
                rules.add(rule(rows, table, catalog, schema, Optional.empty(), name -> "current_user"));
            }
        } else {
            for (Map.Entry<String, String> user : new java.util.TreeMap<>(users).entrySet()) {
                String literal = "'" + user.getValue().replace("'", "''") + "'";
                for (TableRef table : tables) {
                    rules.add(rule(rows, table, catalog, schema, Optional.of(user.getKey()), name -> literal));
                }
            }
            // every other user: no access to a governed table (file-based rules apply the first that matches)
            for (TableRef table : tables) {
                ObjectNode deny = location(nodes.objectNode(), table, catalog, schema);
                deny.putArray("privileges");
                rules.add(deny);
            }
        }
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the rules could not be written", e);
        }
    }

    private static ObjectNode rule(RowPolicy rows, TableRef table, String catalog, Optional<String> schema, Optional<String> user,
                                   Function<String, String> attribute) {
        ObjectNode rule = JsonNodeFactory.instance.objectNode();
        user.ifPresent(u -> rule.put("user", regex(u)));
        location(rule, table, catalog, schema);
        rule.putArray("privileges").add("SELECT");
        Optional<RowFilter> filter = rows.filterOf(table);
        filter.ifPresent(f -> rule.put("filter", f.render(attribute)));
        Map<String, ColumnMask> masks = rows.masksOf(table);
        if (!masks.isEmpty()) {
            ArrayNode columns = rule.putArray("columns");
            new java.util.TreeMap<>(masks).forEach((column, mask) -> columns.addObject().put("name", column).put("mask", mask.expression()));
        }
        return rule;
    }

    private static ObjectNode location(ObjectNode rule, TableRef table, String catalog, Optional<String> schema) {
        rule.put("catalog", regex(catalog));
        Optional<String> tableSchema = table.schema().or(() -> schema);
        rule.put("schema", regex(tableSchema.orElseThrow(() -> new IllegalArgumentException(
                "table " + table.table() + " has no schema; name it as schema.table"))));
        rule.put("table", regex(table.table()));
        return rule;
    }

    /** A Trino rule's pattern (a Java regular expression) that matches exactly {@code name}. */
    static String regex(String name) {
        return PLAIN.matcher(name).matches() ? name : Pattern.quote(name);
    }

    private static String qualified(TableRef table, Optional<String> schema) {
        Optional<String> tableSchema = table.schema().or(() -> schema);
        return tableSchema.map(s -> quote(s) + ".").orElse("") + quote(table.table());
    }

    /** A PostgreSQL quoted identifier. */
    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static <V> List<Map.Entry<TableRef, V>> sorted(Map<TableRef, V> map) {
        List<Map.Entry<TableRef, V>> out = new ArrayList<>(map.entrySet());
        out.sort((a, b) -> compare(a.getKey(), b.getKey()));
        return out;
    }

    private static int compare(TableRef a, TableRef b) {
        return a.qualifiedName().compareTo(b.qualifiedName());
    }

    private static int compare(ColumnRef a, ColumnRef b) {
        int t = compare(a.table(), b.table());
        return t != 0 ? t : a.column().compareTo(b.column());
    }
}
