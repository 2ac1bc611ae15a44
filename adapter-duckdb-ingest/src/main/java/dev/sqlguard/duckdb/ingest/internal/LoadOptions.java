package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The reader hints of a load, parsed and checked once.
 *
 * @param format overrides the format the file extension implies
 * @param header whether the first row (CSV, TSV, xlsx) holds the column names; default true
 * @param delimiter the CSV field delimiter, or null to let DuckDB detect it
 * @param types column type hints, in the order given, keyed by column name
 * @param sheet the xlsx sheet by name or 1-based position, or null for the first sheet
 * @param decimal the CSV decimal separator, {@code '.'} (default) or {@code ','}; with {@code ','} a
 *     {@code '.'} groups thousands ({@code 1.234,56}) and the default delimiter is {@code ;}
 * @param dateFormat the CSV date format in DuckDB's strftime notation (e.g. {@code %d.%m.%Y}), or
 *     null for ISO dates
 * @param rejects the table (CSV, TSV) that keeps the rows that did not load and why, or null to fail the
 *     load on the first such row
 * @param nullPadding whether a CSV row with fewer fields than the header loads with NULLs for the rest
 */
public record LoadOptions(Optional<InputFormat> format, boolean header, String delimiter,
                          Map<String, String> types, String sheet, char decimal, String dateFormat, String rejects, boolean nullPadding) {
    public static final String FORMAT = "format";
    public static final String HEADER = "header";
    public static final String DELIMITER = "delimiter";
    public static final String TYPES = "types";
    public static final String SHEET = "sheet";
    public static final String DECIMAL = "decimal";
    public static final String DATE_FORMAT = "dateformat";
    public static final String REJECTS = "rejects";
    public static final String NULL_PADDING = "null_padding";
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final Set<String> KNOWN = new TreeSet<>(List.of(FORMAT, HEADER, DELIMITER, TYPES, SHEET, DECIMAL,
            DATE_FORMAT, REJECTS, NULL_PADDING));
    /** A strftime format: at least one %-specifier, printable, short. DuckDB then checks the specifiers. */
    private static final Pattern DATE_FORMAT_TEXT = Pattern.compile("[^\\p{Cntrl}]{0,60}%[^\\p{Cntrl}]{1,60}");

    /**
     * A DuckDB type name as an operator writes it: words, an optional (p) or (p,s), an optional [].
     * DuckDB itself then confirms the type exists before anything is loaded.
     */
    private static final Pattern TYPE_NAME = Pattern.compile(
            "[A-Za-z][A-Za-z0-9_]*(\\s+[A-Za-z][A-Za-z0-9_]*)*(\\s*\\(\\s*\\d{1,3}\\s*(,\\s*\\d{1,3}\\s*)?\\))?(\\s*\\[\\])?");

    public LoadOptions {
        requireNonNull(format, "format is null");
        types = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(types, "types is null")));
        if (delimiter != null && (delimiter.isEmpty() || delimiter.length() > 4)) {
            throw new IllegalArgumentException("delimiter must have 1 to 4 characters");
        }
        if (decimal != '.' && decimal != ',') {
            throw new IllegalArgumentException("decimal must be '.' or ','");
        }
    }

    /** The reader hints with everything at its default. */
    public static LoadOptions defaults() {
        return parse(Map.of());
    }

    public static LoadOptions parse(Map<String, String> options) {
        requireNonNull(options, "options is null");
        for (String key : options.keySet()) {
            if (!KNOWN.contains(key)) {
                throw invalid("Unknown load option '" + LoaderText.printable(key, 40) + "'; known options: "
                        + String.join(", ", KNOWN) + ".");
            }
        }
        Optional<InputFormat> format = Optional.empty();
        if (options.containsKey(FORMAT)) {
            String value = options.get(FORMAT);
            format = Optional.of(InputFormat.fromOption(value).orElseThrow(() -> invalid(
                    "Unknown format '" + LoaderText.printable(value, 40) + "'; supported: "
                            + InputFormat.supportedList() + ".")));
        }
        boolean header = parseHeader(options.get(HEADER));
        String delimiter = parseDelimiter(options.get(DELIMITER));
        Map<String, String> types = options.containsKey(TYPES) ? parseTypes(options.get(TYPES)) : Map.of();
        String sheet = options.get(SHEET);
        if (sheet != null && sheet.isBlank()) {
            throw invalid("The sheet option is empty; give a sheet name or its 1-based position.");
        }
        char decimal = parseDecimal(options.get(DECIMAL));
        if (decimal == ',' && ",".equals(delimiter)) {
            throw invalid("With decimal=, the delimiter cannot be a comma; use delimiter=; (the default with decimal=,)"
                    + " or another delimiter.");
        }
        String dateFormat = options.get(DATE_FORMAT);
        if (dateFormat != null && !DATE_FORMAT_TEXT.matcher(dateFormat).matches()) {
            throw invalid("The dateformat option must be a strftime format such as %d.%m.%Y or %m/%d/%Y.");
        }
        String rejects = options.get(REJECTS);
        if (rejects != null && !TABLE_NAME.matcher(rejects).matches()) {
            throw invalid("The rejects option names the table for the rows that did not load: 1 to 63 letters, digits and"
                    + " underscores, starting with a letter or an underscore.");
        }
        boolean nullPadding = options.containsKey(NULL_PADDING) && parseFlag(options.get(NULL_PADDING), NULL_PADDING);
        return new LoadOptions(format, header, delimiter, types, sheet, decimal, dateFormat, rejects, nullPadding);
    }

    /**
     * The CSV field delimiter for {@code format}: the delimiter option, else a tab for TSV, a
     * semicolon for a decimal comma, and a comma otherwise.
     */
    public String delimiterFor(InputFormat format) {
        if (delimiter != null) {
            return delimiter;
        }
        if (format == InputFormat.TSV) {
            return "\t";
        }
        return decimal == ',' ? ";" : ",";
    }

    /** The thousands separator that the decimal option implies, or null for none. */
    public String thousands() {
        return decimal == ',' ? "." : null;
    }

    /** Whether the operator set the option, so the loader can refuse options no input uses. */
    public static boolean given(Map<String, String> options, String key) {
        return options.containsKey(key);
    }

    /** The type hint for a column, matched case-insensitively as DuckDB matches names. */
    public Optional<String> typeFor(String column) {
        return types.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(column))
                .map(Map.Entry::getValue).findFirst();
    }

    private static boolean parseFlag(String value, String option) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid("The " + option + " option must be true or false.");
        };
    }

    private static boolean parseHeader(String value) {
        if (value == null) {
            return true;
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid("The header option must be true or false.");
        };
    }

    private static char parseDecimal(String value) {
        if (value == null) {
            return '.';
        }
        return switch (value.trim()) {
            case "." -> '.';
            case "," -> ',';
            default -> throw invalid("The decimal option must be . or , (the character between a number's whole"
                    + " part and its decimals).");
        };
    }

    private static String parseDelimiter(String value) {
        if (value == null) {
            return null;
        }
        String delimiter = switch (value) {
            case "\\t", "tab", "TAB" -> "\t";
            default -> value;
        };
        if (delimiter.isEmpty() || delimiter.length() > 4 || delimiter.contains("\n") || delimiter.contains("\r")
                || delimiter.contains("\"")) {
            throw invalid("The delimiter must be 1 to 4 characters, without a line break or a double quote"
                    + " (use \\t or tab for a tab).");
        }
        return delimiter;
    }

    /** Parses {@code col:TYPE,col2:DECIMAL(10,2)}: commas inside parentheses belong to the type. */
    static Map<String, String> parseTypes(String value) {
        Map<String, String> types = new LinkedHashMap<>();
        for (String entry : splitTopLevel(value)) {
            int colon = entry.indexOf(':');
            if (colon < 0) {
                throw invalid("Each types entry must look like column:TYPE, e.g. types=amount:DOUBLE,day:DATE.");
            }
            String column = entry.substring(0, colon).trim();
            String type = entry.substring(colon + 1).trim();
            if (column.isEmpty()) {
                throw invalid("A types entry has no column name.");
            }
            if (!TYPE_NAME.matcher(type).matches()) {
                throw invalid("The type for column '" + LoaderText.printable(column, 60) + "' is not a type name: '"
                        + LoaderText.printable(type, 60) + "'.");
            }
            for (String known : types.keySet()) {
                if (known.equalsIgnoreCase(column)) {
                    throw invalid("The types option names column '" + LoaderText.printable(column, 60) + "' twice.");
                }
            }
            types.put(column, type.replaceAll("\\s+", " ").toUpperCase(Locale.ROOT));
        }
        if (types.isEmpty()) {
            throw invalid("The types option is empty; use column:TYPE,column2:TYPE.");
        }
        return types;
    }

    private static List<String> splitTopLevel(String value) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                addPart(parts, value.substring(start, i));
                start = i + 1;
            }
        }
        addPart(parts, value.substring(start));
        return parts;
    }

    private static void addPart(List<String> parts, String part) {
        if (!part.isBlank()) {
            parts.add(part.trim());
        }
    }

    static GuardException invalid(String message) {
        return new GuardException(ErrorCode.INVALID_ARGUMENT, message);
    }
}
