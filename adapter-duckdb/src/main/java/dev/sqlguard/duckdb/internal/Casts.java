package dev.sqlguard.duckdb.internal;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/** Which casts of DuckDB 2.0 cannot fail, whatever the value: the others can, so they are partial steps. */
final class Casts {
    /** Integer types by the digits of their largest value. */
    private static final Map<String, Integer> INTEGER_DIGITS = Map.of(
            "TINYINT", 3, "SMALLINT", 5, "INTEGER", 10, "BIGINT", 19, "HUGEINT", 39,
            "UTINYINT", 3, "USMALLINT", 5, "UINTEGER", 10, "UBIGINT", 20, "UHUGEINT", 39);

    /** Widening chains: a cast to a later type of the same chain keeps every value. */
    private static final List<List<String>> WIDENING = List.of(
            List.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT"),
            List.of("UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT"),
            List.of("UTINYINT", "SMALLINT"), List.of("USMALLINT", "INTEGER"), List.of("UINTEGER", "BIGINT"),
            List.of("UBIGINT", "HUGEINT"),
            List.of("FLOAT", "DOUBLE"));

    private Casts() {
    }

    /** Whether a cast from {@code from} to {@code to} (plan type objects) succeeds for every value. */
    static boolean cannotFail(JsonNode from, JsonNode to) {
        String f = from.path("id").asText("");
        String t = to.path("id").asText("");
        if (t.equals("VARCHAR") && plain(to)) {
            return true; // every value has a text form (JSON, an alias of VARCHAR, validates: it is not plain)
        }
        if (from.equals(to)) {
            return true;
        }
        if ("SQLNULL".equals(f)) {
            return true;
        }
        for (List<String> chain : WIDENING) {
            int a = chain.indexOf(f);
            int b = chain.indexOf(t);
            if (a >= 0 && b >= a) {
                return true;
            }
        }
        if (INTEGER_DIGITS.containsKey(f) && ("DOUBLE".equals(t) || "FLOAT".equals(t))) {
            return true; // may round, never fails
        }
        if ("DECIMAL".equals(f) && "DOUBLE".equals(t)) {
            return true;
        }
        if ("DECIMAL".equals(t)) {
            int width = to.path("type_info").path("width").asInt(0);
            int scale = to.path("type_info").path("scale").asInt(0);
            if (INTEGER_DIGITS.containsKey(f)) {
                return width - scale >= INTEGER_DIGITS.get(f);
            }
            if ("DECIMAL".equals(f)) {
                int fromWidth = from.path("type_info").path("width").asInt(Integer.MAX_VALUE);
                int fromScale = from.path("type_info").path("scale").asInt(Integer.MAX_VALUE);
                return scale >= fromScale && width - scale >= fromWidth - fromScale;
            }
        }
        return false;
    }

    /** A type without an alias, collation or extension (VARCHAR, not JSON or VARCHAR COLLATE x). */
    private static boolean plain(JsonNode type) {
        JsonNode info = type.get("type_info");
        return info == null || info.isNull();
    }
}
