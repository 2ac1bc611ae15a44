package dev.sqlguard.duckdb.internal;

import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.FunctionClasses;

/**
 * The documented default allowlists: ordinary scalar, aggregate and window functions for
 * analytics, and the few table functions analytics needs. Nothing here reads files, settings,
 * secrets, variables or the catalog, or runs SQL text. A policy that names its own functions
 * replaces these lists; {@link #NEVER} is refused even then. The engine reports them to the domain as
 * {@link #CLASSES}, and the domain decides ({@link dev.sqlguard.domain.GuardrailPolicy#requireFunction}).
 */
public final class FunctionDefaults {
    /**
     * Operators (function nodes with {@code is_operator}); they are always allowed and never configurable. DuckDB 2.0
     * parses {@code x [NOT] [I]LIKE p ESCAPE e} as the operator {@code [not_][i]like_escape}.
     */
    public static final Set<String> OPERATORS = Set.of(
            "+", "-", "*", "/", "//", "%", "**", "^", "||", "&", "|", "#", "~", "<<", ">>", "!",
            "~~", "!~~", "~~*", "!~~*", "~~~", "!~~~", "^@", "@>", "<@", "&&",
            "like_escape", "not_like_escape", "ilike_escape", "not_ilike_escape");

    /** Functions refused whatever a policy says: they read files, settings, secrets or variables, or run SQL text. */
    public static final Set<String> NEVER = Set.of(
            "query", "query_table", "json_execute_serialized_sql", "json_serialize_sql", "json_deserialize_sql",
            "json_serialize_plan", "current_setting", "getvariable", "getenv", "glob", "sniff_csv", "checkpoint",
            "force_checkpoint", "read_blob", "read_text", "read_csv", "read_csv_auto", "read_json", "read_json_auto",
            "read_ndjson", "read_parquet", "parquet_scan", "read_duckdb", "which_secret", "current_query",
            "current_database", "current_catalog", "current_schema", "current_schemas", "pg_sleep", "error",
            "nextval", "currval", "setseed", "make_secret", "enable_logging", "disable_logging", "enable_profiling",
            "disable_profiling", "truncate_duckdb_logs", "arrow_scan", "arrow_scan_dumb", "seq_scan",
            "register_external_resource", "create_external_resource", "test_all_types", "test_vector_types",
            "sleep_ms", "write_log", "setval", "current_query_id", "current_connection_id", "current_transaction_id",
            "txid_current", "parse_duckdb_log_message", "icu_sort_key", "version");

    /** Prefixes refused whatever a policy says. */
    public static final Set<String> NEVER_PREFIXES = Set.of("read_", "duckdb_", "pragma_", "parquet_", "pg_", "has_", "sqlite_");

    /** DuckDB's aggregate functions among the defaults (a select alias over one binds where a subquery's would not). */
    public static final Set<String> AGGREGATES = Set.of(
            "count", "count_star", "count_if", "countif", "sum", "avg", "mean", "min", "max", "median", "mode",
            "quantile", "quantile_cont", "quantile_disc", "approx_quantile", "approx_count_distinct", "stddev",
            "stddev_pop", "stddev_samp", "var_pop", "var_samp", "variance", "corr", "covar_pop", "covar_samp",
            "string_agg", "group_concat", "listagg", "list", "array_agg", "first", "last", "any_value", "arbitrary",
            "arg_min", "arg_max", "argmin", "argmax", "min_by", "max_by", "bool_and", "bool_or", "bit_and", "bit_or",
            "bit_xor", "histogram", "entropy", "kurtosis", "kurtosis_pop", "skewness", "product", "fsum", "favg",
            "sumkahan", "kahan_sum", "mad", "sem", "geomean", "geometric_mean", "weighted_avg", "wavg",
            "regr_avgx", "regr_avgy", "regr_count", "regr_intercept", "regr_r2", "regr_slope", "regr_sxx",
            "regr_sxy", "regr_syy", "grouping", "grouping_id", "percentile_cont", "percentile_disc");

    /** Scalar, aggregate and window functions allowed by default. */
    public static final Set<String> FUNCTIONS = Set.copyOf(union(AGGREGATES, Set.of(
            // window
            "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead",
            "first_value", "last_value", "nth_value",
            // numbers
            "abs", "round", "round_even", "roundbankers", "floor", "ceil", "ceiling", "trunc", "sqrt", "cbrt",
            "power", "pow", "exp", "ln", "log", "log2", "log10", "sign", "greatest", "least", "mod", "pi",
            "degrees", "radians", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "isnan", "isinf",
            "isfinite", "even", "gcd", "lcm", "factorial", "fdiv", "fmod", "divide", "add", "subtract",
            "multiply", "random", "bit_count", "xor",
            // text
            "lower", "upper", "lcase", "ucase", "length", "len", "char_length", "character_length", "strlen",
            "substr", "substring", "left", "right", "trim", "ltrim", "rtrim", "concat", "concat_ws", "replace",
            "reverse", "repeat", "lpad", "rpad", "position", "strpos", "instr", "contains", "starts_with",
            "ends_with", "prefix", "suffix", "split_part", "string_split", "str_split", "string_to_array",
            "regexp_matches", "regexp_replace", "regexp_extract", "regexp_full_match", "regexp_split_to_array",
            "like_escape", "ilike_escape", "format", "printf", "ascii", "chr", "levenshtein",
            "damerau_levenshtein", "jaro_similarity", "jaro_winkler_similarity", "hamming", "mismatches",
            "translate", "strip_accents", "nfc_normalize", "array_to_string", "md5", "sha256", "hash",
            // dates and times
            "date_part", "datepart", "date_trunc", "datetrunc", "date_diff", "datediff", "date_sub", "datesub",
            "date_add", "year", "month", "day", "dayofweek", "dayofyear", "dayofmonth", "week", "weekofyear",
            "weekday", "quarter", "hour", "minute", "second", "millisecond", "microsecond", "epoch", "epoch_ms",
            "epoch_us", "make_date", "make_time", "make_timestamp", "strftime", "strptime", "try_strptime",
            "to_timestamp", "now", "today", "get_current_date", "get_current_timestamp", "current_date",
            "current_time", "current_timestamp", "age", "last_day", "monthname", "dayname", "yearweek", "isodow",
            "isoyear", "era", "decade", "century", "millennium", "time_bucket", "to_days", "to_months",
            "to_years", "to_hours", "to_minutes", "to_seconds", "to_milliseconds", "to_microseconds", "to_weeks",
            "days_in_month", "ago",
            // conditionals and types
            "coalesce", "ifnull", "nullif", "if", "iif", "typeof",
            // lists, structs, maps
            "list_value", "list_pack", "array_value", "list_extract", "list_element", "array_extract",
            "list_contains", "list_has", "array_contains", "array_has", "list_position", "list_indexof",
            "list_sort", "array_sort", "list_reverse_sort", "list_distinct", "array_distinct", "list_unique",
            "array_length", "list_transform", "array_transform", "list_apply", "apply", "list_filter",
            "array_filter", "filter", "list_reduce", "array_reduce", "reduce", "list_aggregate", "list_aggr",
            "aggregate", "list_slice", "array_slice", "flatten", "list_concat", "list_cat", "array_concat",
            "array_cat", "list_append", "array_append", "list_prepend", "array_prepend", "list_sum", "list_avg",
            "list_min", "list_max", "list_count", "list_first", "list_last", "list_has_any", "list_has_all",
            "unnest", "struct_pack", "struct_extract", "row", "map", "map_extract", "element_at", "map_keys",
            "map_values", "cardinality", "generate_series", "range")));

    /** Table functions allowed by default. */
    private static TreeSet<String> union(Set<String> a, Set<String> b) {
        TreeSet<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    public static final Set<String> TABLE_FUNCTIONS = Set.of("range", "generate_series", "unnest");

    /**
     * These lists as the engine reports them to the domain: a never-allowed function is refused like one
     * off the list ("is not allowlisted", with the closest allowed names), so the never-list is not shown.
     */
    public static final FunctionClasses CLASSES = new FunctionClasses(FUNCTIONS, TABLE_FUNCTIONS, NEVER, NEVER_PREFIXES,
            Set.of(), Set.of(), FunctionClasses.NeverWording.NOT_ALLOWLISTED);

    /** The SQL value names DuckDB binds when no column has that name. */
    public static final Set<String> SQL_VALUE_NAMES = Set.of(
            "current_date", "current_time", "current_timestamp", "localtime", "localtimestamp");

    private FunctionDefaults() {
    }

    /** Whether a function is refused whatever the policy says. */
    public static boolean isNever(String name) {
        if (NEVER.contains(name)) {
            return true;
        }
        for (String prefix : NEVER_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
