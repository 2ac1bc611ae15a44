package dev.sqlguard.mysql.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.FunctionClasses;

/**
 * The MySQL/MariaDB functions sqlguard lets a query call, by category, each with the cost class the
 * domain's sensitive-flow rule decides on, and the functions no policy may enable. A function that is
 * not catalogued here has no cost class: a policy naming it does not start (the engine reports it as such,
 * {@link CatalogLoader#functionFacts}; the host decides).
 *
 * <p>{@link CostClass#TOTAL}: never fails and never branches on its input's content, and builds at
 * most the sum of its inputs ({@code upper}, {@code length}, {@code concat}, {@code max}).
 * {@link CostClass#PARTIAL}: computes, compares or converts, and can fail or branch on a value
 * ({@code pow} and {@code exp} overflow, {@code cot(0)} fails, JSON functions fail on invalid JSON).
 * {@link CostClass#AMPLIFYING}: its output grows faster than its input ({@code repeat}, {@code lpad});
 * its {@link Rule} says which argument must be a literal.
 *
 * <p>Left out on purpose: {@code char()} (it returns a binary string, which comes back base64-encoded
 * rather than as the text the server shows), the random, session and lock functions of the never-list,
 * and the regular-expression functions (their cost grows with the pattern).
 */
public final class MySqlFunctions {
    /** The category a function is listed under (docs and messages). */
    public enum Category { AGGREGATE, WINDOW, STRING, DATE_TIME, MATH, CONDITIONAL, JSON }

    /** How an amplifying call is bounded by its literal arguments. */
    enum Rule {
        /** Not amplifying. */
        LINEAR,
        /** {@code repeat(s, n)}: n copies of s; n must be a literal. */
        REPEAT,
        /** {@code lpad(s, n, p)}, {@code rpad}: exactly n characters; n must be a literal. */
        PAD,
        /** {@code space(n)}: n characters; n must be a literal. */
        SPACE,
        /** {@code replace(s, from, to)}: each match becomes {@code to}; {@code to} must be a literal. */
        REPLACE
    }

    /** One catalogued function. */
    record Entry(String name, Category category, CostClass costClass, Rule rule) {
    }

    /** Functions no policy may enable: files, sleeping, locks, sequences, session and server state. */
    public static final Set<String> NEVER_ALLOWED = Set.of(
            "load_file", "sleep", "benchmark", "get_lock", "release_lock", "release_all_locks", "is_free_lock",
            "is_used_lock", "master_pos_wait", "source_pos_wait", "master_gtid_wait", "nextval", "lastval", "setval",
            "sys_exec", "sys_eval", "last_insert_id", "row_count", "found_rows", "connection_id", "current_user",
            "session_user", "system_user", "user", "database", "schema", "version", "uuid_short", "name_const",
            "sys_guid", "json_table", "column_get", "column_json", "wsrep_last_written_gtid", "wsrep_sync_wait_upto_gtid",
            "rand", "uuid", "sysdate", "load_data", "get_format", "des_encrypt", "des_decrypt", "aes_encrypt",
            "aes_decrypt", "encrypt", "password", "old_password", "default", "values", "last_value", "extractvalue",
            "updatexml", "regexp_replace", "regexp_substr", "regexp_instr");

    private static final Map<String, Entry> CATALOGUE = catalogue();

    /**
     * The catalogue as the engine reports it to the domain, allowing {@code defaults} (the catalogued names
     * the server knows) when a policy names no functions: a never-allowed function is refused as such
     * ("is never allowed"), {@code load_file} as external access.
     */
    public static FunctionClasses classes(Set<String> defaults) {
        return new FunctionClasses(defaults, Set.of(), NEVER_ALLOWED, Set.of(), Set.of("load_file"), Set.of(),
                FunctionClasses.NeverWording.NEVER_ALLOWED);
    }

    /**
     * Argument positions (from 0) at which an otherwise total function reads a parameter and fails on
     * an invalid one, found by the catalog prover against the server ({@code MySqlCatalogProverTest}).
     * A value reaching one passes a partial step. On MariaDB 10.11: the position of
     * {@code nth_value(x, n)} ("BIGINT value is out of range in '-9223372036854775808 - 1'").
     */
    static final Map<String, Set<Integer>> PARAMETER_ARGUMENTS = Map.of("nth_value", Set.of(1));

    /** The class of one argument of a call: {@link CostClass#PARTIAL} at a parameter position of a total function, else the function's. */
    static CostClass argumentClass(String name, int position, CostClass function) {
        return function == CostClass.TOTAL && PARAMETER_ARGUMENTS.getOrDefault(name, Set.of()).contains(position)
                ? CostClass.PARTIAL : function;
    }

    private MySqlFunctions() {
    }

    /** The catalogued function by its lower-case name, or empty. */
    static Optional<Entry> of(String name) {
        return Optional.ofNullable(CATALOGUE.get(name));
    }

    /** Every catalogued name: the default allowlist when a policy names no functions. */
    public static Set<String> defaults() {
        return CATALOGUE.keySet();
    }

    /** The catalogued names of one category, sorted (docs). */
    public static Set<String> names(Category category) {
        Set<String> out = new TreeSet<>();
        CATALOGUE.values().stream().filter(e -> e.category() == category).forEach(e -> out.add(e.name()));
        return out;
    }

    /** The cost class of a catalogued function (docs and tests). */
    public static Optional<CostClass> costClass(String name) {
        return of(name.toLowerCase(Locale.ROOT)).map(Entry::costClass);
    }

    private static Map<String, Entry> catalogue() {
        Map<String, Entry> m = new LinkedHashMap<>();
        // aggregates: count, pick or collect values (total); compute on them (partial)
        put(m, Category.AGGREGATE, CostClass.TOTAL, "count", "min", "max", "group_concat", "any_value");
        put(m, Category.AGGREGATE, CostClass.PARTIAL, "sum", "avg", "std", "stddev", "stddev_pop", "stddev_samp",
                "variance", "var_pop", "var_samp", "bit_and", "bit_or", "bit_xor");
        // window functions: numbering is computed from the ordering, offsets pick values
        put(m, Category.WINDOW, CostClass.TOTAL, "lag", "lead", "first_value", "nth_value");
        put(m, Category.WINDOW, CostClass.PARTIAL, "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile");
        // strings
        put(m, Category.STRING, CostClass.TOTAL, "upper", "lower", "ucase", "lcase", "length", "char_length",
                "character_length", "octet_length", "bit_length", "md5", "sha1", "sha", "sha2", "crc32", "reverse", "trim",
                "ltrim", "rtrim", "concat", "concat_ws", "to_base64", "hex", "quote", "soundex");
        put(m, Category.STRING, CostClass.PARTIAL, "substring", "substr", "mid", "left", "right", "locate", "instr",
                "position", "substring_index", "ascii", "ord", "strcmp", "field", "find_in_set", "elt", "insert",
                "from_base64", "unhex", "bin", "oct", "conv", "format");
        put(m, Category.STRING, CostClass.AMPLIFYING, Rule.REPEAT, "repeat");
        put(m, Category.STRING, CostClass.AMPLIFYING, Rule.PAD, "lpad", "rpad");
        put(m, Category.STRING, CostClass.AMPLIFYING, Rule.SPACE, "space");
        put(m, Category.STRING, CostClass.AMPLIFYING, Rule.REPLACE, "replace");
        // dates and times: every one parses or computes on its input
        put(m, Category.DATE_TIME, CostClass.PARTIAL, "date", "time", "timestamp", "year", "month", "day", "dayofmonth",
                "dayofweek", "dayofyear", "weekday", "week", "weekofyear", "yearweek", "quarter", "hour", "minute",
                "second", "microsecond", "monthname", "dayname", "last_day", "makedate", "maketime", "date_add",
                "date_sub", "adddate", "subdate", "addtime", "subtime", "datediff", "timediff", "timestampdiff",
                "timestampadd", "date_format", "time_format", "str_to_date", "from_days", "to_days", "to_seconds",
                "unix_timestamp", "from_unixtime", "sec_to_time", "time_to_sec", "period_add", "period_diff",
                "extract", "now", "curdate", "curtime", "current_date", "current_time", "current_timestamp",
                "localtime", "localtimestamp", "utc_date", "utc_time", "utc_timestamp", "convert_tz");
        // numbers: arithmetic can overflow or fail on a domain error (pow, exp, cot, log)
        put(m, Category.MATH, CostClass.PARTIAL, "abs", "round", "truncate", "floor", "ceil", "ceiling", "sign", "mod",
                "pow", "power", "exp", "ln", "log", "log2", "log10", "sqrt", "pi", "degrees", "radians", "sin", "cos",
                "tan", "asin", "acos", "atan", "atan2", "cot", "greatest", "least", "div");
        // conditionals
        put(m, Category.CONDITIONAL, CostClass.TOTAL, "coalesce", "ifnull");
        put(m, Category.CONDITIONAL, CostClass.PARTIAL, "if", "nullif", "isnull", "interval");
        // JSON: reading fails on invalid JSON
        put(m, Category.JSON, CostClass.PARTIAL, "json_extract", "json_unquote", "json_value", "json_contains",
                "json_contains_path", "json_length", "json_keys", "json_type", "json_valid", "json_depth", "json_search",
                "json_query", "json_exists", "json_overlaps");
        put(m, Category.JSON, CostClass.TOTAL, "json_quote", "json_array", "json_object");
        return Map.copyOf(m);
    }

    private static void put(Map<String, Entry> m, Category category, CostClass cost, String... names) {
        put(m, category, cost, Rule.LINEAR, names);
    }

    private static void put(Map<String, Entry> m, Category category, CostClass cost, Rule rule, String... names) {
        for (String name : List.of(names)) {
            Entry known = m.get(name);
            // a name listed twice keeps its stricter class
            if (known == null || known.costClass() == CostClass.TOTAL) {
                m.put(name, new Entry(name, category, cost, rule));
            }
        }
    }
}
