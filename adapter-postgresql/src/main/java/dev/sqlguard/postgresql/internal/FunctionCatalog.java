package dev.sqlguard.postgresql.internal;

import java.util.Map;
import java.util.Set;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.jdbc.ansi.FunctionRules;

/**
 * Every function the PostgreSQL engine knows, with its {@link CostClass}; the functions it never
 * allows whatever a policy says; and the default allowlist (every classified function). A function
 * that is not classified here cannot be called, and a policy that allowlists one does not start.
 * Calls are rendered {@code pg_catalog.}-qualified, so a user schema can never supply them.
 */
public final class FunctionCatalog {
    /** Refused whatever a policy says: files, other databases, SQL from strings, sleeping, locks, signals, settings, sequences. */
    public static final Set<String> NEVER = Set.of(
            "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "lo_import", "lo_export", "lo_get", "lo_put",
            "lo_open", "lo_create", "lo_unlink", "lo_from_bytea", "loread", "lowrite", "dblink", "dblink_exec",
            "dblink_connect", "dblink_open", "dblink_fetch", "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
            "table_to_xml", "table_to_xmlschema", "table_to_xml_and_xmlschema", "cursor_to_xml", "cursor_to_xmlschema",
            "schema_to_xml", "database_to_xml", "xpath", "xpath_exists", "pg_sleep", "pg_sleep_for", "pg_sleep_until",
            "pg_advisory_lock", "pg_advisory_xact_lock", "pg_try_advisory_lock", "set_config", "current_setting",
            "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_rotate_logfile", "nextval", "setval",
            "currval", "lastval", "txid_current", "txid_current_if_assigned", "txid_snapshot_xmin", "pg_current_xact_id",
            "version", "current_user", "session_user", "current_role", "user", "current_database", "current_catalog",
            "current_schema", "current_schemas", "current_query", "inet_client_addr", "inet_server_addr",
            "inet_client_port", "inet_server_port", "format", "to_regclass", "to_regproc", "row_to_json", "to_json",
            "to_jsonb", "json_agg", "jsonb_agg", "row", "array", "unnest", "set_bit", "convert_from", "convert_to",
            "random", "setseed", "gen_random_uuid", "clock_timestamp", "statement_timestamp", "timeofday", "regexp_replace",
            "regexp_matches", "regexp_match", "regexp_split_to_table", "regexp_split_to_array", "regexp_like", "regexp_count",
            "regexp_instr", "regexp_substr", "similar_to_escape", "xmlagg", "xmlelement", "xmlparse", "notify", "pg_notify");

    /** Prefixes refused whatever a policy says. */
    public static final Set<String> NEVER_PREFIXES = Set.of("pg_", "lo_", "dblink", "txid_", "has_", "xml", "ts_", "json", "to_reg");

    /** Functions that read files, the network or other databases: refused as external access. */
    static final Set<String> EXTERNAL = Set.of("pg_read_file", "pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "lo_import",
            "lo_export", "dblink", "dblink_exec", "dblink_connect", "dblink_open", "dblink_fetch");

    /** Written as keywords, not functions: never rendered with a schema. */
    static final Set<String> SYNTAX = Set.of("coalesce", "nullif", "greatest", "least");

    /** Aggregates: allowed in the select list and HAVING, with DISTINCT, ORDER BY and FILTER. */
    static final Set<String> AGGREGATES = Set.of("count", "sum", "avg", "min", "max", "bool_and", "bool_or", "every",
            "string_agg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "corr", "covar_pop",
            "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count", "regr_avgx", "regr_avgy",
            "percentile_cont", "percentile_disc", "mode");

    /** Window-only functions. */
    static final Set<String> WINDOW = Set.of("row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
            "lag", "lead", "first_value", "last_value", "nth_value");

    private static final Map<String, CostClass> CLASSES = FunctionRules.classes(
            // never fail on any value of the right type, never branch on content, bounded output
            Set.of("count", "min", "max", "bool_and", "bool_or", "every", "string_agg", "mode",
                    "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "lag", "lead", "first_value",
                    "last_value", "upper", "lower", "initcap", "length", "char_length", "character_length", "octet_length",
                    "bit_length", "concat", "concat_ws", "coalesce", "md5", "reverse", "btrim", "ltrim", "rtrim",
                    "left", "right", "translate", "date_trunc", "date_part", "extract", "to_char", "now", "current_date",
                    "current_timestamp", "localtimestamp", "isfinite", "quote_literal", "quote_ident", "quote_nullable"),
            // may fail or choose depending on the value
            Set.of("sum", "avg", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp",
                    "corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count", "regr_avgx",
                    "regr_avgy", "percentile_cont", "percentile_disc", "ntile", "nth_value", "abs", "round", "trunc", "floor",
                    "ceil", "ceiling", "sign", "sqrt", "cbrt", "power", "pow", "exp", "ln", "log", "log10", "mod", "div",
                    "width_bucket", "greatest", "least", "nullif", "substr", "substring", "strpos", "position", "split_part",
                    "starts_with", "ascii", "to_date", "to_timestamp", "to_number", "make_date", "make_timestamp",
                    "make_interval", "age", "date_bin", "justify_days", "justify_hours", "justify_interval", "scale",
                    "degrees", "radians", "pi", "gcd", "lcm", "factorial", "num_nonnulls", "num_nulls",
                    "date"), // date(x): the function-style cast, which fails on text that is not a date
            // output or work grows faster than the input
            Set.of("repeat", "lpad", "rpad", "generate_series", "replace"));

    /**
     * Argument positions (from 0) at which an otherwise total function reads a parameter and fails on an
     * invalid one, found by the catalog prover on PostgreSQL 15 ({@code PostgresCatalogProverTest}):
     * the {@code date_trunc} unit ({@code unit "" not recognized}) and time zone ({@code time zone "" not
     * recognized}), the {@code date_part} and {@code extract} unit, {@code date_part}'s date (a date
     * past 294276 AD: {@code date out of range for timestamp}) and the {@code to_char} format
     * ({@code cannot use "V" and decimal point together}, {@code invalid format specification for an
     * interval value}).
     */
    static final Map<String, Set<Integer>> PARAMETER_ARGUMENTS = Map.of("date_trunc", Set.of(0, 2), "date_part", Set.of(0, 1),
            "extract", Set.of(0), "to_char", Set.of(1));

    /**
     * Argument positions whose value sets the output's size, found by the catalog prover: {@code round}
     * and {@code trunc} scales ({@code round(1, 9999)} is 10,001 characters), {@code power}/{@code pow}
     * exponents ({@code power(2.0, 9999)} 1,778), {@code factorial} (35,656 digits for 9999) and
     * {@code exp} (434 digits for 999).
     */
    static final Map<String, Set<Integer>> SIZE_ARGUMENTS = Map.of("round", Set.of(1), "trunc", Set.of(1), "power", Set.of(1),
            "pow", Set.of(1), "factorial", Set.of(0), "exp", Set.of(0));

    private FunctionCatalog() {
    }

    /** The rules the shared renderer applies. */
    static final FunctionRules RULES = new FunctionRules("PostgreSQL", CLASSES, NEVER, NEVER_PREFIXES, EXTERNAL, Set.of("lo_", "dblink"), SYNTAX,
            AGGREGATES, WINDOW, PARAMETER_ARGUMENTS, Map.of(), SIZE_ARGUMENTS, FunctionRules.TEXT_CASTS);

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
