package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.CostClass;

/** The cost-class catalogue against DuckDB's own function catalogue. */
class FunctionCostsTest {
    /**
     * Functions that take a count, width or size and return text, a list or bits, but build at most a
     * bounded multiple of their inputs: reviewed one by one.
     */
    private static final Set<String> REVIEWED_LINEAR = Set.of(
            "left", "right", "substr", "substring", "substring_grapheme", "left_grapheme", "right_grapheme",
            "list_slice", "array_slice", "list_extract", "list_element", "array_extract", "struct_extract",
            "struct_extract_at", "->>", "json_extract", "json_extract_string", "json_extract_path",
            "json_extract_path_text", "json_value", "regexp_extract", "regexp_extract_all", "chr",
            "format_bytes", "formatreadablesize", "formatreadabledecimalsize", "overlay",
            "<<", ">>", "concat", "||", "greatest", "least", "typeof", "get_bit", "set_bit",
            // bitwise operators: the result is as long as the input bit strings
            "&", "|", "~", "xor", "bit_and", "bit_or", "bit_xor",
            // date and number arithmetic
            "+", "add",
            // a literal list of quantiles or one value per row: bounded by the query text or by the rows
            "approx_quantile", "reservoir_quantile", "nth_value",
            // top-n aggregates: at most one value per input row, as list() collects
            "max", "min", "arg_max", "arg_min", "argmax", "argmin", "arg_max_null", "arg_min_null", "max_by", "min_by");

    @Test
    void everyDefaultFunctionHasACostClass() {
        Set<String> missing = new TreeSet<>();
        for (String name : FunctionDefaults.FUNCTIONS) {
            if (FunctionCosts.of(name).isEmpty()) {
                missing.add(name);
            }
        }
        assertThat(missing).as("default functions without a cost class").isEmpty();
    }

    @Test
    void everyClassifiedFunctionIsKnownToDuckDbOrAParserForm() throws Exception {
        Set<String> known = functions().keySet();
        Set<String> unknown = new TreeSet<>();
        for (String name : FunctionCosts.names()) {
            if (!known.contains(name) && !ConfiguredFunctions.SPECIAL_FORMS.contains(name)) {
                unknown.add(name);
            }
        }
        assertThat(unknown).as("classified names that are neither DuckDB functions nor parser forms").isEmpty();
    }

    /**
     * The amplifying family, found in the catalogue rather than listed from memory: every classified
     * scalar function with a count-like parameter that returns text, a list, a blob or bits is either
     * AMPLIFYING, bounded by a rule of its own (the fixed-factor expanders {@code hex} and {@code bin},
     * {@code concat_ws}'s separators), or reviewed as linear above.
     */
    @Test
    void everyFunctionThatMayAmplifyIsClassifiedAmplifyingOrReviewed() throws Exception {
        Set<String> unreviewed = new TreeSet<>();
        for (Map.Entry<String, Set<String>> e : functions().entrySet()) {
            String name = e.getKey();
            boolean countLike = e.getValue().stream().anyMatch(s -> s.startsWith("count:"));
            boolean grows = e.getValue().stream().anyMatch(s -> s.startsWith("returns:"));
            if (!countLike || !grows || FunctionCosts.of(name).isEmpty()) {
                continue;
            }
            FunctionCosts.Cost cost = FunctionCosts.of(name).get();
            boolean bounded = cost.costClass() == CostClass.AMPLIFYING || cost.rule() != FunctionCosts.Rule.LINEAR;
            if (!bounded && !REVIEWED_LINEAR.contains(name)) {
                unreviewed.add(name);
            }
        }
        assertThat(unreviewed).as("functions that take a count and return a value that can grow: "
                + "classify them AMPLIFYING or review them as linear").isEmpty();
    }

    @Test
    void theKnownAmplifiersAreAmplifying() {
        for (String name : Set.of("repeat", "lpad", "rpad", "format", "printf", "range", "generate_series", "list_resize",
                "array_resize", "levenshtein", "damerau_levenshtein", "jaro_similarity", "jaro_winkler_similarity",
                "replace", "regexp_replace", "strftime", "bar")) {
            assertThat(FunctionCosts.of(name).orElseThrow().costClass()).as(name).isEqualTo(CostClass.AMPLIFYING);
        }
    }

    /** No function reviewed as linear has a rule that says otherwise. */
    @Test
    void theReviewedLinearFunctionsHaveNoRule() {
        for (String name : REVIEWED_LINEAR) {
            FunctionCosts.of(name).ifPresent(cost -> assertThat(cost.rule()).as(name).isEqualTo(FunctionCosts.Rule.LINEAR));
        }
    }

    /**
     * Every function DuckDB's catalogue gives a parameter named {@code regex} (the pattern it compiles)
     * is known, at that position, as compiling a pattern, in every overload; and nothing else is.
     */
    @Test
    void theRegexPatternPositionsAreDuckDbsOwn() throws Exception {
        Map<String, Set<Integer>> positions = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT lower(function_name), list_position(parameters, 'regex') - 1 "
                     + "FROM duckdb_functions() WHERE list_contains(parameters, 'regex')")) {
            while (rs.next()) {
                positions.computeIfAbsent(rs.getString(1), k -> new TreeSet<>()).add(rs.getInt(2));
            }
        }
        Map<String, Set<Integer>> classified = new TreeMap<>();
        positions.keySet().stream().filter(n -> FunctionCosts.of(n).isPresent())
                .forEach(n -> classified.put(n, positions.get(n)));
        assertThat(classified).isNotEmpty();
        for (Map.Entry<String, Set<Integer>> e : classified.entrySet()) {
            assertThat(e.getValue()).as(e.getKey()).hasSize(1);
            assertThat(FunctionCosts.patternArgument(e.getKey())).as(e.getKey()).hasValue(e.getValue().iterator().next());
        }
        for (String name : FunctionCosts.names()) {
            if (FunctionCosts.patternArgument(name).isPresent()) {
                assertThat(classified).as(name).containsKey(name);
            }
        }
    }

    /** Name to facts: "count:" when a parameter is an integer type, "returns:" when the result can grow. */
    private static Map<String, Set<String>> functions() throws Exception {
        Map<String, Set<String>> out = new TreeMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT lower(function_name), function_type, return_type, parameter_types::VARCHAR "
                     + "FROM duckdb_functions() WHERE function_type IN ('scalar', 'aggregate', 'window', 'macro')")) {
            while (rs.next()) {
                Set<String> facts = out.computeIfAbsent(rs.getString(1), k -> new TreeSet<>());
                String returns = rs.getString(3) == null ? "" : rs.getString(3);
                String params = rs.getString(4) == null ? "" : rs.getString(4);
                if (params.matches(".*\\b(BIGINT|INTEGER|UBIGINT|SMALLINT|HUGEINT)\\b.*")) {
                    facts.add("count:");
                }
                if (returns.equals("VARCHAR") || returns.equals("BLOB") || returns.equals("BIT") || returns.endsWith("[]")
                        || returns.startsWith("ANY")) {
                    facts.add("returns:" + returns);
                }
            }
        }
        return out;
    }
}
