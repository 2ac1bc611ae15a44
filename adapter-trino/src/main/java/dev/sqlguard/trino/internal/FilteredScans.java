package dev.sqlguard.trino.internal;

import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;

/**
 * The cluster's own reading of a filtered text (issue 31): every scan of a table whose row filter takes
 * an attribute must apply that filter. Trino's {@code EXPLAIN} takes a parameter only as a value, and a
 * constant in its place is folded by the planner ({@code region = NULL} and {@code region = 'x'} against
 * a connector that knows the column's values both plan as an empty {@code Values}, which shows nothing).
 * So each attribute is explained as {@link #MARKER}, a varchar that the planner cannot fold or push into
 * a connector because it is not deterministic, and each caller parameter as {@link #OPAQUE_NULL}, a NULL of
 * unknown type that is not folded either. Both call functions that the catalog never lets a query name
 * ({@code uuid}, {@code random}), so only the renderer's filter can put the marker into a plan.
 *
 * <p>In {@code EXPLAIN (TYPE LOGICAL, FORMAT JSON)} (Trino 483) a filter over one table is merged into
 * its scan ({@code ScanFilter}, {@code ScanFilterProject}: {@code descriptor.filterPredicate}); a
 * {@code Filter} node directly above a scan (only projections between) counts too. A scan of a filtered
 * table without the marker there is refused.
 */
final class FilteredScans {
    /** An attribute in the explained text: a varchar the planner can neither fold nor push down. */
    static final String MARKER = "CAST(uuid() AS varchar)";
    /** How the marker reads in a plan's predicate. */
    private static final String MARKER_IN_PLAN = "uuid()";
    /** A string literal as the plan prints it ({@code varchar(5) 'north'}, a quote doubled inside). */
    private static final java.util.regex.Pattern STRING_LITERAL = java.util.regex.Pattern.compile("'(?:[^']|'')*'");
    /** A caller's parameter in the explained text: a NULL of unknown type that the planner does not fold. */
    static final String OPAQUE_NULL = "(CASE WHEN random() > 2 THEN NULL END)";
    private static final Set<String> PASS_THROUGH = Set.of("Project", "Filter");

    private FilteredScans() {
    }

    /**
     * @param catalog the catalog of every known table
     * @param known the known tables
     * @throws GuardException CONSTRUCT_NOT_ALLOWED naming no data when a scan of a filtered table lacks its
     *     filter; INTERNAL_ERROR when the plan cannot be read
     */
    static void require(String logicalJson, String catalog, Set<TableRef> known, RowPolicy rows) {
        JsonNode root = ExplainCheck.parse(logicalJson);
        for (JsonNode fragment : root) {
            check(fragment, false, catalog, known, rows);
        }
    }

    /**
     * @param filtered whether the chain of projections and filters right above {@code node} holds the marker
     */
    private static void check(JsonNode node, boolean filtered, String catalog, Set<TableRef> known, RowPolicy rows) {
        if (node == null || !node.isObject()) {
            return;
        }
        String name = node.path("name").asText("");
        JsonNode descriptor = node.path("descriptor");
        // outside the plan's string literals: a query's own 'CAST(uuid() AS varchar)' is a value, not the marker
        boolean here = STRING_LITERAL.matcher(descriptor.toString()).replaceAll("''").contains(MARKER_IN_PLAN);
        JsonNode table = descriptor.get("table");
        if (table != null) {
            boolean marked = here || filtered;
            ExplainCheck.table(table.asText(), catalog, known).ifPresent(ref -> {
                boolean takesAttributes = rows.filterOf(ref).map(f -> !f.placeholders().isEmpty()).orElse(false);
                if (takesAttributes && !marked) {
                    throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "The database would read the table "
                            + ref.table() + " without its per-caller row filter; write the query more plainly.");
                }
            });
        }
        boolean passes = PASS_THROUGH.contains(name) && (filtered || (name.equals("Filter") && here));
        for (JsonNode child : node.path("children")) {
            check(child, passes, catalog, known, rows);
        }
    }
}
