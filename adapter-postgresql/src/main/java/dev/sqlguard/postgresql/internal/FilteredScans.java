package dev.sqlguard.postgresql.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;

/**
 * Reads the server's generic plan of a filtered text ({@code EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE} of a
 * statement prepared with its parameters as {@code $n}) and confirms that every scan of a table whose row
 * filter takes an attribute carries a condition on an attribute's parameter ({@code Filter},
 * {@code Index Cond}, {@code Recheck Cond}), or sits below a one-time filter on one: the engine's own reading agrees that no scan of a filtered
 * table escapes its filter. A filter that takes no attribute, and a table with masks only, leave no
 * trace to look for and are not checked here.
 */
final class FilteredScans {
    private static final List<String> CONDITIONS = List.of("Filter", "Index Cond", "Recheck Cond");

    private FilteredScans() {
    }

    /**
     * {@code sql} with each {@code ?} outside string literals and quoted names numbered {@code $1}, {@code $2},
     * ... in text order (the renderer's text has no other quoting form: no dollar quotes, no {@code E''}).
     */
    static String numbered(String sql) {
        return dev.sqlguard.jdbc.SqlQuoting.replacePlaceholders(sql, n -> "$" + n);
    }

    /**
     * @param attributeParameters the {@code $n} that take attributes
     * @throws GuardException CONSTRUCT_NOT_ALLOWED naming no data when a scan of a filtered table has no
     *     condition on an attribute's parameter; INTERNAL_ERROR when the plan cannot be read
     */
    static void require(String explainJson, RowPolicy rows, Set<Integer> attributeParameters) {
        JsonNode root = ExplainCheck.parse(explainJson);
        List<Pattern> markers = new ArrayList<>();
        for (int k : attributeParameters) {
            markers.add(Pattern.compile("\\$" + k + "(?![0-9])"));
        }
        for (JsonNode entry : root) {
            check(entry.get("Plan"), false, rows, markers);
        }
    }

    /**
     * Checks {@code node} and the nodes below it.
     *
     * @param gated whether a node above has a one-time filter on an attribute's parameter: the planner puts
     *     the filter there when the query's own condition fixes the filtered column to a constant
     *     ({@code WHERE region = 'south'} with {@code region = $1} gives {@code 'south' = $1}), and nothing
     *     below it runs unless the condition holds
     */
    private static void check(JsonNode node, boolean gated, RowPolicy rows, List<Pattern> markers) {
        if (node == null || !node.isObject()) {
            return;
        }
        boolean below = gated || matches(node.get("One-Time Filter"), markers);
        JsonNode relation = node.get("Relation Name");
        JsonNode schema = node.get("Schema");
        if (relation != null && schema != null && !below) {
            TableRef table = TableRef.of(schema.asText(), relation.asText());
            boolean takesAttributes = rows.filterOf(table).map(f -> !f.placeholders().isEmpty()).orElse(false);
            if (takesAttributes && !conditioned(node, markers)) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The database would read the table "
                        + table.table() + " without its per-caller row filter; write the query more plainly.");
            }
        }
        JsonNode plans = node.get("Plans");
        if (plans != null) {
            for (JsonNode child : plans) {
                check(child, below, rows, markers);
            }
        }
    }

    private static boolean matches(JsonNode value, List<Pattern> markers) {
        if (value != null && value.isTextual()) {
            for (Pattern marker : markers) {
                if (marker.matcher(value.asText()).find()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean conditioned(JsonNode node, List<Pattern> markers) {
        for (String field : CONDITIONS) {
            if (matches(node.get(field), markers)) {
                return true;
            }
        }
        return false;
    }

}
