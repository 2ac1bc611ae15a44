package dev.sqlguard.mysql.internal;

import java.util.Locale;

/**
 * MariaDB and MySQL name the same controls differently. Connector/J reports MariaDB as "MySQL"
 * with a version such as {@code 5.5.5-10.11.19-MariaDB}, so the flavor comes from the version text.
 */
public enum ServerFlavor {
    MARIADB("tx_read_only", "max_statement_time"),
    MYSQL("transaction_read_only", "max_execution_time");

    /**
     * The pinned sql_mode. NO_BACKSLASH_ESCAPES: a backslash is an ordinary character, so no string
     * can end where a parser that ignores escapes thinks it continues. No ANSI_QUOTES and no
     * PIPES_AS_CONCAT: the server's defaults, and the renderer emits neither double quotes nor
     * {@code ||}. The strict modes and ONLY_FULL_GROUP_BY make both servers behave alike.
     */
    public static final String SQL_MODE = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,STRICT_ALL_TABLES,NO_ZERO_IN_DATE,"
            + "NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION,NO_BACKSLASH_ESCAPES";

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

    /** The statement that pins a new connection: sql_mode, server-side read-only and the time limit. */
    public String pinSql(long timeoutMillis) {
        return "SET SESSION sql_mode = '" + SQL_MODE + "', SESSION " + readOnlyVariable + " = 1, SESSION "
                + timeoutVariable + " = " + timeoutValue(timeoutMillis);
    }

    /** Reads back what the server itself says about the session, plus the connection id for KILL QUERY. */
    public String checkSql() {
        return "SELECT @@SESSION." + readOnlyVariable + ", @@SESSION.sql_mode, @@SESSION." + timeoutVariable + ", CONNECTION_ID()";
    }
}
