package dev.sqlguard.duckdb.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * DuckDB's own plans of the fixed programs a statement holds (SUMMARIZE of a table: statistics over
 * every column), taken from DuckDB itself by planning each one alone, so that the reader can find
 * exactly that subtree inside the statement's plan. Only there are DuckDB's inner steps its own
 * rather than the query's; everything around it (a filter, an order, a join on a statistic) is the
 * query's and is read as such.
 *
 * <p>A subtree matches a program when both are the same tree, up to source positions and a
 * consistent renumbering of DuckDB's table bindings (the indexes depend on what the binder bound
 * before). A program that does not match anywhere changes nothing: the subtree is then read like any
 * query, which fails closed.
 */
final class FixedPrograms {
    static final FixedPrograms NONE = new FixedPrograms(List.of());

    /** Fields that hold a table binding index: equal up to a consistent renumbering. */
    private static final Set<String> BINDINGS = Set.of("table_index", "group_index", "aggregate_index",
            "groupings_index", "unnest_index", "window_index", "cte_index");

    private final List<JsonNode> roots;

    private FixedPrograms(List<JsonNode> roots) {
        this.roots = List.copyOf(roots);
    }

    /**
     * The programs of DuckDB's plans of statements of the form {@code SELECT * FROM <program>}
     * ({@code SUMMARIZE t} plans as a projection of every column over the program itself); a
     * document that is not such a plan adds nothing.
     */
    static FixedPrograms of(List<JsonNode> documents) {
        List<JsonNode> roots = new ArrayList<>();
        for (JsonNode document : documents) {
            JsonNode plans = document.path("plans");
            if (document.path("error").asBoolean(true) || !plans.isArray() || plans.size() != 1) {
                continue;
            }
            JsonNode star = plans.get(0);
            JsonNode children = star.path("children");
            if ("LOGICAL_PROJECTION".equals(star.path("type").asText()) && children.isArray() && children.size() == 1) {
                roots.add(children.get(0));
            }
        }
        return new FixedPrograms(roots);
    }

    boolean isEmpty() {
        return roots.isEmpty();
    }

    /** Whether {@code operator} of a statement's plan is one of the programs. */
    boolean matches(JsonNode operator) {
        for (JsonNode root : roots) {
            if (root.path("type").equals(operator.path("type"))
                    && root.path("expressions").size() == operator.path("expressions").size()
                    && same(root, operator, new HashMap<>(), new HashMap<>())) {
                return true;
            }
        }
        return false;
    }

    private static boolean same(JsonNode a, JsonNode b, Map<Long, Long> ab, Map<Long, Long> ba) {
        if (a.isObject() && b.isObject()) {
            if (fields(a) != fields(b)) {
                return false;
            }
            for (Map.Entry<String, JsonNode> field : a.properties()) {
                String name = field.getKey();
                if (isLocation(name)) {
                    continue;
                }
                JsonNode other = b.get(name);
                if (other == null) {
                    return false;
                }
                boolean equal = BINDINGS.contains(name) && field.getValue().canConvertToLong() && other.canConvertToLong()
                        ? bijective(field.getValue().asLong(), other.asLong(), ab, ba)
                        : same(field.getValue(), other, ab, ba);
                if (!equal) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i), ab, ba)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    private static boolean bijective(long a, long b, Map<Long, Long> ab, Map<Long, Long> ba) {
        Long known = ab.putIfAbsent(a, b);
        Long back = ba.putIfAbsent(b, a);
        return (known == null || known.longValue() == b) && (back == null || back.longValue() == a);
    }

    private static int fields(JsonNode node) {
        int count = 0;
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            if (!isLocation(it.next())) {
                count++;
            }
        }
        return count;
    }

    private static boolean isLocation(String field) {
        return "query_location".equals(field) || "query_location_length".equals(field);
    }
}
