package dev.sqlguard.duckdb.ingest.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns DuckDB's errors into short sentences of our own. The operator's file name may appear (this
 * is trusted operator output); driver text, stack traces and other paths never do. The driver's
 * exception stays attached as the cause, inside the process.
 */
public final class LoadErrors {
    private static final Pattern ERROR_CLASS = Pattern.compile("^([A-Z][A-Za-z ]{1,40} Error):");
    private static final Pattern CSV_LINE = Pattern.compile("CSV Error on Line: (\\d+)");
    private static final Pattern CSV_COLUMN = Pattern.compile("Error when converting column \"([^\"\\n]{1,200})\"");
    private static final Pattern TARGET_TYPE = Pattern.compile("to '([A-Za-z0-9_(), ]{1,60})'");
    private static final Pattern JSON_RECORD = Pattern.compile("in record/value (\\d+)");
    /** The value DuckDB could not convert, as its message quotes it (the value may hold quotes itself). */
    private static final Pattern CONVERT_VALUE = Pattern.compile("Could not convert string \"(.{0,4000}?)\" to '", Pattern.DOTALL);
    /** Characters of a bad value a message quotes at most. */
    static final int VALUE_CHARS = 60;
    private static final Pattern EXPECTED_COLUMNS = Pattern.compile("Expected Number of Columns: (\\d+) Found: (\\d+)");

    private LoadErrors() {
    }

    public static GuardException failed(String message) {
        return new GuardException(ErrorCode.LOAD_FAILED, message + " The database is unchanged.");
    }

    public static GuardException failed(String message, Throwable cause) {
        return new GuardException(ErrorCode.LOAD_FAILED, message + " The database is unchanged.", cause);
    }

    /** An error while reading one input. */
    public static GuardException reading(String file, InputFormat format, SQLException e) {
        String text = String.valueOf(e.getMessage());
        String errorClass = errorClass(text);
        Matcher line = CSV_LINE.matcher(text);
        if (errorClass.equals("Conversion Error")) {
            return conversion(file, line.find() ? Long.parseLong(line.group(1)) : -1, e);
        }
        if (text.contains("Error when sniffing file")) {
            return failed(file + " could not be parsed as " + format + ": its rows do not have the same number of"
                    + " fields. Check the delimiter option or fix the file.", e);
        }
        if (text.contains("COLUMN_TYPES error") || text.contains("in REPLACE list not found")) {
            return new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "The types option names a column that " + file + " does not have.", e);
        }
        if (text.contains("Could not parse DATEFORMAT")) {
            return new GuardException(ErrorCode.INVALID_ARGUMENT, "The dateformat option is not a format DuckDB knows;"
                    + " use strftime codes such as %d.%m.%Y.", e);
        }
        if (text.contains("unterminated quote") && line.find()) {
            return failed(file + ", line " + line.group(1) + ": a quoted field is never closed (a \" without its"
                    + " closing \").", e);
        }
        if (format == InputFormat.PARQUET && errorClass.equals("Invalid Input Error")) {
            return failed(file + " is not a valid Parquet file.", e);
        }
        if (text.contains("Malformed JSON")) {
            Matcher record = JSON_RECORD.matcher(text);
            return failed(file + " is not valid JSON" + (record.find() ? " (record " + record.group(1) + ")" : "")
                    + ".", e);
        }
        if (line.find()) {
            Matcher expected = EXPECTED_COLUMNS.matcher(text);
            return failed(expected.find()
                    ? wrongWidth(file, Long.parseLong(line.group(1)), Integer.parseInt(expected.group(2)),
                            Integer.parseInt(expected.group(1)))
                    : file + ", line " + line.group(1) + " could not be parsed.", e);
        }
        if (errorClass.equals("Out of Memory Error")) {
            return failed("Not enough memory to load " + file + ".", e);
        }
        if (errorClass.equals("IO Error") || errorClass.equals("Permission Error")) {
            return failed(file + " could not be read.", e);
        }
        return failed(file + " could not be loaded as " + format + describe(errorClass) + ".", e);
    }

    /**
     * A value DuckDB could not convert to its column's type: {@code claims.csv, line 4: the value
     * "2024-13-45" in column "day" is not a valid DATE.} The value is quoted (cut to
     * {@value #VALUE_CHARS} characters, control characters shown as {@code ?}); {@code line} is the
     * physical line of the file (or -1 for none).
     */
    public static GuardException conversion(String file, long line, SQLException e) {
        String text = String.valueOf(e.getMessage());
        Matcher column = CSV_COLUMN.matcher(text);
        Matcher type = TARGET_TYPE.matcher(text);
        Optional<String> value = convertedValue(e);
        StringBuilder message = new StringBuilder(file);
        if (line > 0) {
            message.append(", line ").append(line);
        }
        message.append(value.isPresent() ? ": the value \"" + LoaderText.printable(value.get(), VALUE_CHARS) + "\"" : ": a value");
        if (column.find()) {
            message.append(" in column \"").append(LoaderText.printable(column.group(1), 80)).append('"');
        }
        message.append(" is not a valid ").append(type.find() ? type.group(1) : "value of its column type")
                .append(". Add a type hint (types=column:VARCHAR), keep such rows aside (rejects=TABLE) or fix the file.");
        return failed(message.toString(), e);
    }

    /** The value DuckDB's conversion error quotes, if it quotes one. */
    public static Optional<String> convertedValue(SQLException e) {
        Matcher value = CONVERT_VALUE.matcher(String.valueOf(e.getMessage()));
        return value.find() ? Optional.of(value.group(1)) : Optional.empty();
    }

    /** The column DuckDB's conversion error names, if it names one. */
    public static Optional<String> convertedColumn(SQLException e) {
        Matcher column = CSV_COLUMN.matcher(String.valueOf(e.getMessage()));
        return column.find() ? Optional.of(column.group(1)) : Optional.empty();
    }

    /** Whether DuckDB's error is a conversion error. */
    public static boolean isConversion(SQLException e) {
        return errorClass(String.valueOf(e.getMessage())).equals("Conversion Error");
    }

    /**
     * A row of another width than the header: {@code claims.csv, line 3 has 3 fields where 2 columns
     * were expected.} A header of one column that the rows outgrow usually means that the file
     * separates its fields with another character than the delimiter used, so the sentence says
     * which option to set.
     */
    public static String wrongWidth(String file, long line, int found, int expected) {
        String text = file + ", line " + line + " has " + found + (found == 1 ? " field" : " fields") + " where "
                + expected + (expected == 1 ? " column was" : " columns were") + " expected.";
        if (expected == 1 && found > 1) {
            text += " The header was read as one column: if the file separates its fields with another character,"
                    + " set the delimiter option (delimiter=;).";
        }
        return text;
    }

    /** Whether DuckDB's message names the CSV line it failed on. */
    public static boolean namesLine(SQLException e) {
        return CSV_LINE.matcher(String.valueOf(e.getMessage())).find();
    }

    /**
     * Refuses type hints for columns the input lacks, naming them and the input's columns. Names
     * compare case-insensitively, as DuckDB compares them.
     */
    public static void requireHintedColumns(Collection<String> hinted, List<String> columns, String file) {
        List<String> missing = new ArrayList<>();
        for (String hint : hinted) {
            if (columns.stream().noneMatch(c -> c.equalsIgnoreCase(hint))) {
                missing.add(LoaderText.printable(hint, 60));
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        String shown = columns.size() <= 30 ? columns.toString()
                : columns.subList(0, 30).toString().replace("]", ", ...]");
        throw new GuardException(ErrorCode.INVALID_ARGUMENT, (missing.size() == 1
                ? "The types option names column '" + missing.get(0) + "', which " + file + " does not have"
                : "The types option names columns " + missing + ", which " + file + " does not have")
                + "; its columns are " + LoaderText.printable(shown, 600) + ".");
    }

    /** An error outside any one input: the swap, the append, the catalog. */
    public static GuardException general(String what, SQLException e) {
        String text = String.valueOf(e.getMessage());
        String errorClass = errorClass(text);
        if (text.contains("Cannot change allowed_paths")) {
            return failed("The database is already open for writing elsewhere in this process.", e);
        }
        if (errorClass.equals("TransactionContext Error")) {
            return failed(what + " failed because another writer changed the database at the same time.", e);
        }
        return failed(what + " failed" + describe(errorClass) + ".", e);
    }

    /** An error while opening the database file read-write. */
    public static GuardException opening(SQLException e) {
        String text = String.valueOf(e.getMessage());
        if (text.contains("different configuration")) {
            return failed("The database is already open in this process (close query connections before loading).",
                    e);
        }
        if (text.contains("lock")) {
            return failed("The database is locked by another process; close it before loading.", e);
        }
        return failed("The database file could not be opened as a DuckDB database.", e);
    }

    private static String describe(String errorClass) {
        return errorClass.isEmpty() ? "" : " (DuckDB " + errorClass + ")";
    }

    private static String errorClass(String text) {
        Matcher m = ERROR_CLASS.matcher(text);
        return m.find() ? m.group(1) : "";
    }
}
