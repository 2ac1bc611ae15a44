package dev.sqlguard.trino.internal;

import java.util.Map;
import java.util.Set;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.jdbc.ansi.FunctionRules;

/**
 * Every function the Trino engine knows, with its {@link CostClass}; the functions it never allows
 * whatever a policy says; and the default allowlist (every classified function). A function that is
 * not classified here cannot be called, and a policy that allowlists one does not start. Calls are
 * rendered by their bare names, and every qualified name is refused, so a catalog's own SQL
 * routines can never be called.
 */
public final class FunctionCatalog {
    /**
     * Refused whatever a policy says: SQL from strings, lambdas and array builders, randomness, the
     * session's identity, JSON and URL readers, regular expressions, table-producing functions, and
     * value producers whose output grows with a literal (sequence, repeat).
     */
    public static final Set<String> NEVER = Set.of(
            "query", "exclude_columns", "sequence", "repeat", "sleep", "random", "rand", "uuid", "shuffle", "transform",
            "filter", "reduce", "zip_with", "transform_keys", "transform_values", "map_filter", "any_match", "all_match",
            "none_match", "array_sort", "try", "try_cast", "current_user", "current_catalog", "current_schema", "current_path",
            "current_groups", "current_timezone", "version", "format", "json_parse", "json_extract", "json_extract_scalar",
            "json_query", "json_value", "json_exists", "json_format", "json_array", "json_object", "url_extract_host",
            "url_extract_path", "url_decode", "url_encode", "regexp_like", "regexp_replace", "regexp_extract",
            "regexp_extract_all", "regexp_split", "regexp_count", "regexp_position", "unnest", "array_agg", "map_agg",
            "multimap_agg", "histogram", "listagg", "array_join", "split", "split_to_map", "split_to_multimap", "ngrams",
            "combinations", "flatten", "array_union", "array_repeat", "from_base64", "to_base64", "from_hex", "to_hex",
            "md5", "sha1", "sha256", "sha512", "xxhash64", "spooky_hash_v2_32", "spooky_hash_v2_64", "hmac_md5", "hmac_sha1",
            "hmac_sha256", "hmac_sha512", "crc32", "murmur3", "from_utf8", "to_utf8", "evaluate_classifier_predictions",
            "learn_classifier", "learn_regressor", "classify", "regress", "features", "row", "cast", "typeof",
            "approx_set", "make_set_digest", "merge", "qdigest_agg", "tdigest_agg", "numeric_histogram", "geometric_mean",
            "bing_tile", "st_point", "from_iso8601_timestamp_nanos", "word_stem", "normalize", "luhn_check",
            "levenshtein_distance", "hamming_distance", "jaro_winkler_similarity", "cosine_similarity", "lambda");

    /** Prefixes refused whatever a policy says. */
    public static final Set<String> NEVER_PREFIXES = Set.of("json_", "url_", "regexp_", "st_", "array_", "map_", "ip",
            "hmac_", "sha", "from_big", "to_big", "bitwise_", "hash");

    /** Functions that read files, the network or other databases: refused as external access. */
    static final Set<String> EXTERNAL = Set.of("query", "url_extract_host", "url_extract_path", "url_decode", "url_encode");

    /** Written as keywords, not functions. */
    static final Set<String> SYNTAX = Set.of("coalesce", "nullif", "greatest", "least");

    /**
     * Classified names that Trino 483 parses as syntax of its own rather than registering as functions,
     * so {@code SHOW FUNCTIONS} does not list them (measured): every other classified name is a function
     * the server lists.
     */
    static final Set<String> SPECIAL_FORMS = Set.of("coalesce", "nullif", "if", "extract", "position", "current_timestamp",
            "localtimestamp");

    /**
     * Functions other engines have that Trino 483 does not, with Trino's nearest: a policy may list
     * them, so that one written for several engines starts, but a call is refused naming the nearest
     * (a call reaching the cluster would fail as an unknown function).
     */
    static final Map<String, String> ABSENT = Map.of("ascii", "codepoint");

    /** Aggregates: allowed in the select list and HAVING, with DISTINCT, ORDER BY and FILTER. */
    static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every",
            "count_if", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop",
            "covar_samp", "regr_slope", "regr_intercept", "approx_distinct", "approx_percentile", "arbitrary", "any_value",
            "max_by", "min_by", "kurtosis", "skewness");

    /** Window-only functions. */
    static final Set<String> WINDOW = Set.of("row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
            "lag", "lead", "first_value", "last_value", "nth_value");

    /**
     * Argument positions (from 0) at which an otherwise total function reads a parameter, not data,
     * and fails on an invalid one (measured on Trino 483: {@code date_trunc(u, d)} "'x' is not a valid
     * DATE field", {@code lag(x, n)} "Offset must be at least 0", {@code max(x, n)} "second argument of
     * max_n must be positive"). A value reaching such an argument passes a partial step: otherwise
     * {@code max(id, length(ltrim(ssn, '0123456789-')))} fails exactly when the sensitive value is made
     * of those characters, an error oracle through total steps only.
     */
    static final Map<String, Set<Integer>> PARAMETER_ARGUMENTS = Map.of("date_trunc", Set.of(0), "min", Set.of(1),
            "max", Set.of(1), "lag", Set.of(1), "lead", Set.of(1), "approx_distinct", Set.of(1));

    private static final Map<String, CostClass> CLASSES = FunctionRules.classes(
            // never fail on any value of the right type, never branch on content, bounded output
            Set.of("count", "min", "max", "bool_and", "bool_or", "every", "arbitrary", "any_value",
                    "approx_distinct", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "lag", "lead",
                    "first_value", "last_value", "upper", "lower", "length", "concat", "coalesce", "reverse", "trim", "ltrim",
                    "rtrim", "date_trunc", "extract", "year", "quarter", "month", "week", "day", "day_of_week", "day_of_month",
                    "day_of_year", "dow", "doy", "hour", "minute", "second", "last_day_of_month", "now", "current_date",
                    "current_timestamp", "localtimestamp", "is_nan", "is_finite", "is_infinite"),
            // may fail or choose depending on the value
            Set.of("sum", "avg", "count_if", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop",
                    "var_samp", "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "approx_percentile",
                    "max_by", "min_by", "kurtosis", "skewness", "ntile", "nth_value", "abs", "round", "truncate", "floor",
                    "ceil", "ceiling", "sign", "sqrt", "cbrt", "power", "pow", "exp", "ln", "log2", "log10", "mod",
                    "width_bucket", "greatest", "least", "nullif", "substr", "substring", "strpos", "position", "split_part",
                    "starts_with", "codepoint", "date_add", "date_diff", "date_format", "date_parse", "format_datetime",
                    "from_iso8601_date", "from_iso8601_timestamp", "to_iso8601", "from_unixtime", "to_unixtime",
                    "degrees", "radians", "pi", "if"),
            // output or work grows faster than the input
            Set.of("lpad", "rpad", "replace"));

    private FunctionCatalog() {
    }

    /**
     * The cast targets that never fail: unbounded {@code varchar} only. Trino 483 fails a cast of a
     * number to {@code varchar(n)} or {@code char(n)} whose text does not fit ({@code CAST(12345 AS
     * varchar(3))}, found by {@code TrinoCatalogProverTest}), and the renderer does not know the source
     * type, so every cast with a length is partial.
     */
    static final Set<String> TOTAL_CASTS = Set.of("varchar");

    /** The rules the shared renderer applies. */
    static final FunctionRules RULES = new FunctionRules("Trino", CLASSES, NEVER, NEVER_PREFIXES, EXTERNAL, Set.of("url_"), SYNTAX,
            AGGREGATES, WINDOW, PARAMETER_ARGUMENTS, ABSENT, Map.of(), TOTAL_CASTS);

    /**
     * The catalog as this engine reports it to the domain ({@link FunctionRules#functionClasses()}): the
     * domain fills it into the configured policy and decides on every call with it.
     */
    public static FunctionClasses classes() {
        return RULES.functionClasses();
    }

    /** The default allowlist: every classified function. */
    public static Set<String> defaults() {
        return RULES.defaults();
    }

    /** What the catalog knows about configured function names ({@link FunctionRules#facts}); the host decides. */
    public static FunctionFacts facts(Set<String> functions, Set<String> tableFunctions) {
        return RULES.facts(functions, tableFunctions);
    }
}
