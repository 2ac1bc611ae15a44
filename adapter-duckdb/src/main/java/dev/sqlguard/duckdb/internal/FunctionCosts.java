package dev.sqlguard.duckdb.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

import dev.sqlguard.domain.CostClass;

/**
 * The cost class of every function sqlguard lets DuckDB run, and for amplifying ones the rule that
 * bounds what a call can build. A function that is not here has no class, so no plan that calls it
 * is accepted, and a policy that allowlists it does not start.
 *
 * <p>{@link CostClass#TOTAL}: never fails and never branches on its input's content (measured on
 * DuckDB 2.0: no implicit cast from text is involved, mixed types are refused at bind time), and
 * builds at most the sum of its inputs. {@link CostClass#PARTIAL}: can fail, or compares or computes
 * on the value. {@link CostClass#AMPLIFYING}: its output or work grows faster than its input; its
 * {@link Rule} says which arguments must be literals and what they bound.
 */
final class FunctionCosts {
    /** How an amplifying call is bounded. */
    enum Rule {
        /** Builds at most the sum of its inputs, or a fixed-width value. */
        LINEAR,
        /** {@code repeat(s, n)}: n copies of s; n must be a literal. */
        REPEAT,
        /** {@code lpad(s, n, p)}, {@code rpad}: exactly n characters; n must be a literal. */
        PAD,
        /** {@code format(fmt, ...)}: fmt must be a literal; its widths and precisions are added up. */
        FORMAT,
        /** {@code printf(fmt, ...)}: as {@link #FORMAT}, with printf's width syntax. */
        PRINTF,
        /** {@code range(...)}, {@code generate_series(...)} as scalars: a list of as many elements as the literal bounds say. */
        SERIES,
        /** {@code list_resize(l, n[, v])}: n elements; n must be a literal. */
        RESIZE,
        /** {@code list_select(l, indexes)}: one element of l per index, repeats allowed; the indexes must not come from the data. */
        SELECT,
        /** Edit distances: work is the product of both lengths; one side must be a short literal. */
        QUADRATIC,
        /** {@code replace(s, from, to)}: each match becomes {@code to}; {@code to} must be a literal. */
        REPLACE,
        /** {@code regexp_replace(s, p, r[, opts])}: each match becomes r with back-references; r must be a literal. */
        REGEXP_REPLACE,
        /** {@code strftime(x, fmt)}: each specifier expands to a bounded width; fmt must be a literal. */
        STRFTIME,
        /** {@code to_base(n, radix, min_length)}: min_length must be a literal. */
        TO_BASE,
        /** {@code bitstring(s, n)}: n bits; n must be a literal. */
        BITSTRING,
        /** {@code equi_width_bins(min, max, n, nice)}: n bins; n must be a literal. */
        BINS,
        /** {@code bar(x, min, max[, width])}: width characters; width must be a literal. */
        BAR,
        /**
         * {@code hex(x)}, {@code to_hex}: two digits per byte, so 8 characters per character of text (a
         * character is at most 4 bytes), 2 per byte of a blob, 32 for a number. A fixed factor: nested
         * calls multiply.
         */
        HEX,
        /** {@code bin(x)}, {@code to_binary}: 8 digits per byte, so 32 per character, 8 per byte of a blob, 128 for a number. */
        BIN,
        /** {@code url_encode(s)}: {@code %XX} per byte, so 12 characters per character. */
        URL_ENCODE,
        /** {@code to_base64(b)}, {@code base64}: 4 characters per 3 bytes, at most 2 per byte plus 2. */
        BASE64,
        /**
         * {@code to_json(x)}: text escaped (a control character becomes a 6-character escape), numbers, dates and
         * the like written out, keys and brackets added; the factor depends on the argument's type (see
         * {@link Amplifications#render}). JSON comes back as it is.
         */
        TO_JSON,
        /** {@code array_to_string(l, sep)}: the separator once per element of the list. */
        JOIN,
        /** {@code list_aggregate(l, name, args...)}: as {@link #JOIN} for {@code string_agg}'s separator, at most the list otherwise. */
        LIST_AGGREGATE,
        /** {@code concat_ws(sep, a, b, ...)}: the separator between every two arguments. */
        CONCAT_WS;

        /** Whether the rule multiplies its input by a fixed factor, so that nested calls compound. */
        boolean fixedFactor() {
            return this == HEX || this == BIN || this == URL_ENCODE || this == BASE64 || this == TO_JSON;
        }
    }

    /**
     * One function's class and its bounding rule. The rule of an {@link CostClass#AMPLIFYING} function
     * is never {@link Rule#LINEAR}; a total or partial function may have a rule too (a fixed-factor
     * expander such as {@code hex}), which bounds its size without changing its class.
     */
    record Cost(CostClass costClass, Rule rule) {
    }

    private static final Map<String, Cost> COSTS = costs();

    /**
     * The argument each regular-expression function compiles (DuckDB's catalog names it {@code regex}).
     * DuckDB compiles a constant pattern once per query, but a pattern computed from the data once per
     * row, inside a vector of 2,048 rows that no interrupt reaches (measured on DuckDB 2.0: 100,000
     * compilations of {@code '.{50}.{50}' || x} took 120 s); a pattern must therefore be constant.
     */
    private static final Map<String, Integer> PATTERNS = Map.of("regexp_matches", 1, "regexp_full_match", 1,
            "regexp_extract", 1, "regexp_extract_all", 1, "regexp_replace", 1, "regexp_split_to_array", 1,
            "string_split_regex", 1, "str_split_regex", 1);

    /**
     * Argument positions (from 0) at which an otherwise total function reads a parameter and fails on
     * an invalid one, found by the catalog prover on DuckDB 2.0 ({@code DuckDbCatalogProverTest}): the
     * count of the top-n forms {@code max(x, n)}, {@code min(x, n)} ("Invalid input for MIN/MAX: n value
     * cannot be NULL", "must be > 0") and {@code arg_max(x, y, n)} and its aliases ("Invalid input for
     * arg_min/arg_max: n value cannot be NULL"), the dimension of {@code array_length(l, d)} ("array_length for
     * lists with dimensions other than 1 not implemented") and the bins of {@code histogram(x, bins)} ("Histogram
     * bin list cannot be NULL"). A value reaching one passes a partial step.
     */
    static final Map<String, Set<Integer>> PARAMETER_ARGUMENTS = Map.of("min", Set.of(1), "max", Set.of(1),
            "arg_min", Set.of(2), "arg_max", Set.of(2), "argmin", Set.of(2), "argmax", Set.of(2), "min_by", Set.of(2),
            "max_by", Set.of(2), "array_length", Set.of(1), "histogram", Set.of(1));

    private FunctionCosts() {
    }

    /** The class of one argument of a call: {@link CostClass#PARTIAL} at a parameter position of a total function, else the function's. */
    static CostClass argumentClass(String name, int position, CostClass function) {
        return function == CostClass.TOTAL && PARAMETER_ARGUMENTS.getOrDefault(name, Set.of()).contains(position)
                ? CostClass.PARTIAL : function;
    }

    /** The cost of a function by its lower-case name, or empty when sqlguard does not know it. */
    static Optional<Cost> of(String name) {
        return Optional.ofNullable(COSTS.get(name));
    }

    /** The position of the argument a function compiles as a regular expression, if it compiles one. */
    static OptionalInt patternArgument(String name) {
        Integer position = PATTERNS.get(name);
        return position == null ? OptionalInt.empty() : OptionalInt.of(position);
    }

    /** Every classified name. */
    static Set<String> names() {
        return COSTS.keySet();
    }

    private static Map<String, Cost> costs() {
        Map<String, Cost> m = new HashMap<>();
        Cost total = new Cost(CostClass.TOTAL, Rule.LINEAR);
        Cost partial = new Cost(CostClass.PARTIAL, Rule.LINEAR);
        // value-preserving aggregates and windows: pick, count or collect values, never compute on them
        for (String f : List.of("count", "count_star", "min", "max", "any_value", "arbitrary", "first", "last",
                "string_agg", "group_concat", "listagg", "list", "array_agg", "approx_count_distinct", "arg_min", "arg_max",
                "argmin", "argmax", "min_by", "max_by", "arg_min_null", "arg_max_null", "mode", "histogram",
                "lag", "lead", "first_value", "last_value", "nth_value")) {
            m.put(f, total);
        }
        // value-preserving scalars: case, trimming, hashing, lengths, packing, concatenation
        for (String f : List.of("upper", "lower", "ucase", "lcase", "length", "len", "strlen", "char_length",
                "character_length", "octet_length", "md5", "sha1", "sha256", "hash", "reverse", "trim", "ltrim", "rtrim",
                "concat", "concat_ws", "||", "coalesce", "ifnull", "typeof", "struct_pack", "row", "list_value", "list_pack",
                "array_value", "unpivot_list", "strip_accents", "nfc_normalize", "cardinality", "array_length",
                "list_concat", "list_cat", "array_concat", "array_cat", "flatten", "to_json", "base64", "to_base64")) {
            m.put(f, total);
        }
        // computing, comparing, extracting, converting: each can fail or branch on a value
        for (String f : List.of(
                // operators
                "+", "-", "*", "/", "//", "%", "**", "^", "&", "|", "~", "<<", ">>", "!__postfix", "~~", "!~~", "~~*",
                "!~~*", "~~~", "^@", "@>", "<@", "&&", "->>", "like_escape", "ilike_escape", "not_like_escape",
                "not_ilike_escape",
                // aggregates
                "count_if", "countif", "sum", "avg", "mean", "median", "quantile", "quantile_cont", "quantile_disc",
                "approx_quantile", "reservoir_quantile", "stddev", "stddev_pop", "stddev_samp", "var_pop", "var_samp",
                "variance", "corr", "covar_pop", "covar_samp", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or",
                "entropy", "kurtosis", "kurtosis_pop", "skewness", "product", "fsum", "favg", "sumkahan", "kahan_sum",
                "mad", "sem", "weighted_avg", "wavg", "geomean", "geometric_mean", "fdiv", "fmod", "percentile_cont",
                "percentile_disc", "unnest", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2",
                "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "grouping", "grouping_id", "sum_no_overflow",
                // windows
                "row_number", "rank", "dense_rank", "rank_dense", "percent_rank", "cume_dist", "ntile",
                // numbers
                "abs", "round", "round_even", "roundbankers", "floor", "ceil", "ceiling", "trunc", "sqrt", "cbrt",
                "power", "pow", "exp", "ln", "log", "log2", "log10", "sign", "greatest", "least", "mod", "pi", "degrees",
                "radians", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh",
                "atanh", "cot", "isnan", "isinf", "isfinite", "even", "gcd", "lcm", "factorial", "divide", "add",
                "subtract", "multiply", "random", "bit_count", "xor", "signbit", "gamma", "lgamma", "nextafter",
                // text
                "substr", "substring", "left", "right", "position", "strpos", "instr", "contains", "starts_with", "ends_with", "prefix",
                "suffix", "split_part", "string_split", "str_split", "string_to_array", "string_split_regex",
                "str_split_regex", "regexp_split_to_array", "regexp_matches", "regexp_extract", "regexp_extract_all",
                "regexp_full_match", "ascii", "chr", "unicode", "ord", "translate", "hamming", "mismatches",
                "array_to_string", "list_aggr", "list_aggregate", "array_aggr", "array_aggregate", "aggregate",
                "from_base64", "url_encode", "url_decode", "hex", "to_hex", "bin", "to_binary", "overlay",
                "format_bytes", "formatreadablesize", "formatreadabledecimalsize",
                // dates and times
                "date_part", "datepart", "date_trunc", "datetrunc", "date_diff", "datediff", "date_sub", "datesub",
                "date_add", "year", "month", "day", "dayofweek", "dayofyear", "dayofmonth", "week", "weekofyear",
                "weekday", "quarter", "hour", "minute", "second", "millisecond", "microsecond", "nanosecond", "epoch",
                "epoch_ms", "epoch_us", "epoch_ns", "make_date", "make_time", "make_timestamp", "strptime",
                "try_strptime", "to_timestamp", "now", "today", "get_current_date", "get_current_time",
                "get_current_timestamp", "current_date", "current_time", "current_timestamp", "current_localtime",
                "current_localtimestamp", "transaction_timestamp", "age", "last_day", "monthname", "dayname",
                "yearweek", "isodow", "isoyear", "era", "decade", "century", "millennium", "time_bucket", "to_days",
                "to_months", "to_years", "to_hours", "to_minutes", "to_seconds", "to_milliseconds", "to_microseconds",
                "to_weeks", "to_quarters", "to_decades", "to_centuries", "to_millennia", "days_in_month", "ago",
                "julian", "timezone", "timezone_hour", "timezone_minute",
                // conditionals and types
                "nullif", "if", "iif",
                // lists, structs, maps
                "list_extract", "list_element", "array_extract", "list_contains", "list_has", "array_contains",
                "array_has", "list_position", "list_indexof", "array_position", "array_indexof", "list_sort",
                "array_sort", "list_reverse_sort", "array_reverse_sort", "list_distinct", "array_distinct",
                "list_unique", "array_unique", "list_transform", "array_transform", "list_apply", "apply",
                "array_apply", "list_filter", "array_filter", "filter", "list_reduce", "array_reduce", "reduce",
                "list_slice", "array_slice", "list_append", "array_append", "list_prepend", "array_prepend",
                "list_sum", "list_avg", "list_min", "list_max", "list_count", "list_first", "list_last",
                "list_has_any", "list_has_all", "array_has_any", "array_has_all", "list_intersect",
                "array_intersect", "list_zip", "array_zip", "list_where",
                "array_where", "list_grade_up", "array_grade_up", "grade_up", "struct_extract", "struct_extract_at",
                "map", "map_extract", "map_extract_value", "element_at", "map_keys", "map_values", "map_entries",
                "map_contains", "map_from_entries", "map_concat", "in_search_path", "json_extract",
                "json_extract_string", "json_extract_path", "json_extract_path_text", "json_value", "json_exists",
                "json_array_length", "json_keys", "json_type", "json_valid", "json_contains")) {
            m.put(f, partial);
        }
        m.put("repeat", amplifying(Rule.REPEAT));
        m.put("lpad", amplifying(Rule.PAD));
        m.put("rpad", amplifying(Rule.PAD));
        m.put("format", amplifying(Rule.FORMAT));
        m.put("printf", amplifying(Rule.PRINTF));
        m.put("range", amplifying(Rule.SERIES));
        m.put("generate_series", amplifying(Rule.SERIES));
        m.put("list_resize", amplifying(Rule.RESIZE));
        m.put("list_select", amplifying(Rule.SELECT));
        m.put("array_select", amplifying(Rule.SELECT));
        m.put("array_resize", amplifying(Rule.RESIZE));
        for (String f : List.of("levenshtein", "editdist3", "damerau_levenshtein", "jaro_similarity",
                "jaro_winkler_similarity", "jaccard")) {
            m.put(f, amplifying(Rule.QUADRATIC));
        }
        m.put("replace", amplifying(Rule.REPLACE));
        m.put("regexp_replace", amplifying(Rule.REGEXP_REPLACE));
        m.put("strftime", amplifying(Rule.STRFTIME));
        m.put("to_base", amplifying(Rule.TO_BASE));
        m.put("bitstring", amplifying(Rule.BITSTRING));
        m.put("equi_width_bins", amplifying(Rule.BINS));
        m.put("bar", amplifying(Rule.BAR));
        // Rules of functions whose class is decided above: fixed-factor expanders and separators
        // repeated per element keep their class (TOTAL or PARTIAL); their rule bounds what they build.
        Map<String, Rule> rules = Map.ofEntries(Map.entry("hex", Rule.HEX), Map.entry("to_hex", Rule.HEX),
                Map.entry("bin", Rule.BIN), Map.entry("to_binary", Rule.BIN), Map.entry("url_encode", Rule.URL_ENCODE),
                Map.entry("to_base64", Rule.BASE64), Map.entry("base64", Rule.BASE64), Map.entry("to_json", Rule.TO_JSON),
                Map.entry("array_to_string", Rule.JOIN), Map.entry("list_aggregate", Rule.LIST_AGGREGATE),
                Map.entry("list_aggr", Rule.LIST_AGGREGATE), Map.entry("array_aggregate", Rule.LIST_AGGREGATE),
                Map.entry("array_aggr", Rule.LIST_AGGREGATE), Map.entry("aggregate", Rule.LIST_AGGREGATE),
                Map.entry("concat_ws", Rule.CONCAT_WS));
        rules.forEach((name, rule) -> {
            Cost cost = m.get(name);
            if (cost != null) {
                m.put(name, new Cost(cost.costClass(), rule));
            }
        });
        return Map.copyOf(m);
    }

    private static Cost amplifying(Rule rule) {
        return new Cost(CostClass.AMPLIFYING, rule);
    }
}
