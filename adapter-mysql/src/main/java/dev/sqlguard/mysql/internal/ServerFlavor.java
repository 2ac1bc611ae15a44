package dev.sqlguard.mysql.internal;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * MariaDB and MySQL name the same controls differently. Connector/J reports MariaDB as "MySQL"
 * with a version such as {@code 5.5.5-10.11.19-MariaDB}, so the flavor comes from the version text.
 */
public enum ServerFlavor {
    MARIADB("tx_read_only", "max_statement_time"),
    MYSQL("transaction_read_only", "max_execution_time");

    /**
     * The sql_mode the generated precedence and agreement tests use: the server default of MariaDB
     * 10.11 with NO_BACKSLASH_ESCAPES, as {@link #pinnedMode(String)} makes it.
     */
    public static final String SQL_MODE = "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,"
            + "NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES";

    /**
     * sql_mode flags that change how the server reads SQL text, so they must be off: double quotes as
     * identifiers, {@code ||} as concatenation, a space before a function's parenthesis, NOT above
     * comparisons, the empty string as NULL, and the compound modes that switch the whole grammar.
     */
    public static final Set<String> PARSING_MODES = Set.of("ANSI_QUOTES", "PIPES_AS_CONCAT", "IGNORE_SPACE",
            "HIGH_NOT_PRECEDENCE", "EMPTY_STRING_IS_NULL", "ANSI", "ORACLE", "MSSQL", "DB2", "POSTGRESQL", "MAXDB",
            "MYSQL323", "MYSQL40", "SIMULTANEOUS_ASSIGNMENT");

    /** The flag that must be on: a backslash is an ordinary character inside a string. */
    public static final String NO_BACKSLASH_ESCAPES = "NO_BACKSLASH_ESCAPES";

    private static final Pattern MODE_NAME = Pattern.compile("[A-Z0-9_]+");

    /**
     * What a session is pinned to.
     *
     * @param sqlMode the sql_mode, as the server reported it back after pinning
     * @param timeoutMillis the statement time limit
     * @param groupConcatMaxLen {@code group_concat_max_len} in bytes
     * @param recursionLimit iterations of a recursive CTE
     */
    public record Pins(String sqlMode, long timeoutMillis, long groupConcatMaxLen, long recursionLimit) {
        public Pins {
            java.util.Objects.requireNonNull(sqlMode, "sqlMode is null");
            if (timeoutMillis < 1 || groupConcatMaxLen < 4 || recursionLimit < 1) {
                throw new IllegalArgumentException("pins must be positive");
            }
        }

        /** The sql_mode flags as a set. */
        public Set<String> modeSet() {
            return modes(sqlMode);
        }
    }

    /** Recursive CTE iterations allowed per query (MySQL's default {@code cte_max_recursion_depth}). */
    public static final long RECURSION_LIMIT = 1000;

    /**
     * {@code group_concat_max_len} for a cell limit in characters: four bytes per character plus one
     * character more, so a value the server cut is always longer than the cell limit and reported cut.
     */
    public static long groupConcatMaxLen(int maxCellChars) {
        return 4L * maxCellChars + 4;
    }

    /** The flags of a sql_mode text, upper case. */
    public static Set<String> modes(String sqlMode) {
        Set<String> out = new TreeSet<>();
        for (String m : (sqlMode == null ? "" : sqlMode).toUpperCase(Locale.ROOT).split(",")) {
            if (!m.isBlank()) {
                out.add(m.strip());
            }
        }
        return out;
    }

    /**
     * The server's default sql_mode with only what parsing and rendering depend on changed: the
     * {@link #PARSING_MODES} removed and NO_BACKSLASH_ESCAPES added. Everything else (ONLY_FULL_GROUP_BY
     * included) stays as the server's operator set it, so a query the server accepts by default runs.
     */
    public static String pinnedMode(String serverDefault) {
        Set<String> out = new TreeSet<>();
        for (String m : modes(serverDefault)) {
            if (!MODE_NAME.matcher(m).matches()) {
                throw new IllegalArgumentException("unexpected sql_mode flag");
            }
            if (!PARSING_MODES.contains(m)) {
                out.add(m);
            }
        }
        out.add(NO_BACKSLASH_ESCAPES);
        return String.join(",", out);
    }

    /** Whether a session's sql_mode leaves the server reading SQL as the renderer writes it. */
    public static boolean parsingSafe(Set<String> modes) {
        return modes.contains(NO_BACKSLASH_ESCAPES) && modes.stream().noneMatch(PARSING_MODES::contains);
    }

    private final String readOnlyVariable;
    private final String timeoutVariable;

    ServerFlavor(String readOnlyVariable, String timeoutVariable) {
        this.readOnlyVariable = readOnlyVariable;
        this.timeoutVariable = timeoutVariable;
    }

    public static ServerFlavor fromVersion(String version) {
        return version != null && version.toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }

    /** The session variable that makes every transaction read-only. */
    public String readOnlyVariable() {
        return readOnlyVariable;
    }

    /** The statement time limit variable: seconds (a decimal) on MariaDB, milliseconds on MySQL. */
    public String timeoutVariable() {
        return timeoutVariable;
    }

    /** The value of the timeout variable for a limit in milliseconds. */
    public String timeoutValue(long millis) {
        return this == MARIADB ? String.format(Locale.ROOT, "%d.%03d", millis / 1000, millis % 1000) : Long.toString(millis);
    }

    /** The recursive CTE limit variable. */
    public String recursionVariable() {
        return this == MARIADB ? "max_recursive_iterations" : "cte_max_recursion_depth";
    }

    /**
     * The statement that pins a new connection: sql_mode, server-side read-only, the time limit, the
     * GROUP_CONCAT length and the recursion limit.
     */
    public String pinSql(Pins pins) {
        if (!modes(pins.sqlMode()).stream().allMatch(m -> MODE_NAME.matcher(m).matches())) {
            throw new IllegalArgumentException("unexpected sql_mode flag");
        }
        return "SET SESSION sql_mode = '" + String.join(",", modes(pins.sqlMode())) + "', SESSION " + readOnlyVariable + " = 1, SESSION "
                + timeoutVariable + " = " + timeoutValue(pins.timeoutMillis()) + ", SESSION group_concat_max_len = "
                + pins.groupConcatMaxLen() + ", SESSION " + recursionVariable() + " = " + pins.recursionLimit();
    }

    /**
     * Reads back what the server itself says about the session, plus the connection id for KILL
     * QUERY: read-only flag, sql_mode, time limit, connection id, group_concat_max_len, recursion limit.
     */
    public String checkSql() {
        return "SELECT @@SESSION." + readOnlyVariable + ", @@SESSION.sql_mode, @@SESSION." + timeoutVariable + ", CONNECTION_ID(),"
                + " @@SESSION.group_concat_max_len, @@SESSION." + recursionVariable();
    }
}
