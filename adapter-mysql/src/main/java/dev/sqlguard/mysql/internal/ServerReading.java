package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

/**
 * How this server reads names and quotes by its own settings, measured at startup, so that the checker
 * reads a text as the server does rather than more leniently: a text the server refuses is refused, and
 * a text it runs is read the same way.
 *
 * @param doubleQuotes what a double-quoted run is under the server's default sql_mode
 * @param exactTableNames whether table names, schema names and table aliases are compared exactly
 *     ({@code lower_case_table_names = 0}, the default on Linux: {@code FROM Claims} is another table than
 *     {@code claims}, and {@code FROM claims C} is not qualified by {@code c.id}), else case-insensitively
 *     (1 and 2). Column names, column aliases, CTE definitions and window names are compared
 *     case-insensitively either way (measured on MariaDB 10.11: {@code WITH Big AS (...) SELECT * FROM big}
 *     runs, and the reference is then named {@code big}).
 */
public record ServerReading(DoubleQuotes doubleQuotes, boolean exactTableNames) {
    /** MySQL's and MariaDB's defaults where names are folded: {@code "x"} a string, names in any case. */
    public static final ServerReading LENIENT = new ServerReading(DoubleQuotes.STRINGS, false);

    public ServerReading {
        requireNonNull(doubleQuotes, "doubleQuotes is null");
    }

    /**
     * The reading of a server whose default sql_mode is {@code sqlMode} and whose
     * {@code lower_case_table_names} is {@code lowerCaseTableNames}.
     */
    public static ServerReading of(String sqlMode, long lowerCaseTableNames) {
        return new ServerReading(DoubleQuotes.ofServerMode(sqlMode), lowerCaseTableNames == 0);
    }
}
