package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport.ColumnRename;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How one CSV or TSV input is read with DuckDB's {@code read_csv}: the dialect is pinned (the
 * delimiter, {@code "} as the quote, no skipped lines) so a broken file fails instead of being
 * sniffed into another shape; a quoted empty field is an empty string, an unquoted one NULL.
 * Before the rows are read this class
 * <ul>
 *   <li>refuses an empty file;</li>
 *   <li>names repeated header columns with the loader's one rule ({@link ColumnNames}) and reports
 *       the renames;</li>
 *   <li>refuses type hints for columns the file lacks, naming them;</li>
 *   <li>turns a column DuckDB would read as DOUBLE into {@code DECIMAL(18,s)} when every value is
 *       plain fixed-point ({@link #FIXED_POINT_RULE});</li>
 *   <li>with {@code decimal=,}, keeps a number column only if every value groups thousands with
 *       {@code .} properly, since DuckDB drops a thousands separator wherever it stands.</li>
 * </ul>
 * When DuckDB refuses the file without naming a line, the file is scanned in Java for the line.
 */
final class CsvReader {
    /** Documented in docs/engines/duckdb-ingestion.md. */
    static final String FIXED_POINT_RULE = "an optional sign, 1 to 14 digits, and 1 to 4 decimals in at least one value";
    static final int MAX_SCALE = 4;
    static final int DECIMAL_PRECISION = 18;
    /** The date format of a CSV without the dateformat option. */
    static final String ISO_DATE = "%Y-%m-%d";

    private static final String FIXED_POINT = "[-+]?[0-9]{1,14}(\\.[0-9]{1,4})?";
    private static final String FIXED_POINT_COMMA = "[-+]?([0-9]{1,3}(\\.[0-9]{3}){1,3}|[0-9]{1,14})(,[0-9]{1,4})?";
    /** Any number written with a decimal comma, where a '.' only ever groups thousands. */
    private static final String NUMBER_COMMA = "[-+]?([0-9]{1,3}(\\.[0-9]{3})+|[0-9]+)(,[0-9]+)?([eE][-+]?[0-9]+)?";

    private final Path path;
    private final String file;
    private final InputFormat format;
    private final boolean gzip;
    private final LoadOptions options;
    private final Map<String, String> hints;
    private final Consumer<String> progress;
    private final Watcher watcher;
    private final String delimiter;
    private final List<ColumnRename> renames = new ArrayList<>();
    /** The columns as loaded (header names, renamed), once {@link #select} has read them. */
    private List<String> columnNames = List.of();
    /** Why each column has its type, by column name, once {@link #select} has decided them. */
    private final Map<String, String> reasons = new LinkedHashMap<>();
    /** The temporary table DuckDB keeps this input's rejected rows in (the rejects option). */
    private final String rejectsTemp;

    /** Runs a statement that reads the whole file, with progress reported as {@code what}. */
    interface Watcher {
        void run(Statement statement, String what, SqlCall call) throws SQLException;
    }

    interface SqlCall {
        void run() throws SQLException;
    }

    CsvReader(Path path, String file, InputFormat format, boolean gzip, LoadOptions options,
              Map<String, String> hints, Consumer<String> progress, Watcher watcher) {
        this.path = requireNonNull(path, "path is null");
        this.file = requireNonNull(file, "file is null");
        this.format = requireNonNull(format, "format is null");
        this.gzip = gzip;
        this.options = requireNonNull(options, "options is null");
        this.hints = requireNonNull(hints, "hints is null");
        this.progress = requireNonNull(progress, "progress is null");
        this.watcher = requireNonNull(watcher, "watcher is null");
        this.delimiter = options.delimiterFor(format);
        this.rejectsTemp = "sqlguard_rejects_" + java.util.UUID.randomUUID().toString().replace("-", "");
    }

    /** Why each column has its type (a type hint, fixed-point numbers, why it stayed text, DuckDB's inference). */
    Map<String, String> reasons() {
        return Map.copyOf(reasons);
    }

    /** The temporary table holding this input's rejected rows, after the load pass (rejects option only). */
    String rejectsTemp() {
        return rejectsTemp;
    }

    /** Sampled rows the VARCHAR analysis reads at most: DuckDB's own sniffing sample. */
    static final int SAMPLE_ROWS = 20_480;

    /**
     * Says why each column has its type. A column DuckDB read as VARCHAR although many of its values
     * are dates (in the dateformat, else ISO) or numbers is explained with counts from DuckDB's own
     * sample and the first value that does not fit, with its line: the case of a column with two date
     * formats, which would otherwise become text in silence.
     */
    private void explainText(Connection connection, List<String> names, Map<String, String> types, List<String> passNames)
            throws SQLException {
        List<String> text = new ArrayList<>();
        List<Column> typed = Ingestion.describe(connection, "SELECT * FROM " + call(types, passNames, Pass.CHECK));
        for (int i = 0; i < names.size() && i < typed.size(); i++) {
            String name = names.get(i);
            String hint = hintFor(name);
            if (hint != null) {
                reasons.put(name, "types option");
            } else if (!reasons.containsKey(name)) {
                if (typed.get(i).type().equals("VARCHAR")) {
                    text.add(name);
                } else {
                    reasons.put(name, "inferred by DuckDB from the values");
                }
            }
        }
        if (text.isEmpty()) {
            return;
        }
        String format = options.dateFormat() != null ? options.dateFormat() : ISO_DATE;
        String fmt = LoaderText.literal(format);
        List<String> aggregates = new ArrayList<>();
        for (String name : text) {
            String q = LoaderText.identifier(name);
            aggregates.add("count(" + q + ")");
            aggregates.add("count(try_strptime(" + q + ", " + fmt + "))");
            aggregates.add("count(TRY_CAST(" + q + " AS DOUBLE))");
            aggregates.add("first(" + q + ") FILTER (WHERE " + q + " IS NOT NULL AND try_strptime(" + q + ", " + fmt + ") IS NULL)");
            aggregates.add("first(" + q + ") FILTER (WHERE " + q + " IS NOT NULL AND TRY_CAST(" + q + " AS DOUBLE) IS NULL)");
        }
        Map<String, String> asText = new LinkedHashMap<>();
        text.forEach(name -> asText.put(name, "VARCHAR"));
        String sql = "SELECT " + String.join(", ", aggregates) + " FROM (SELECT * FROM " + call(asText, passNames, Pass.CHECK)
                + " LIMIT " + SAMPLE_ROWS + ")";
        Object[] row = new Object[aggregates.size()];
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            for (int i = 0; i < row.length; i++) {
                row[i] = rs.getObject(i + 1);
            }
        } catch (SQLException e) {
            text.forEach(name -> reasons.put(name, "text"));
            return;
        }
        for (int k = 0; k < text.size(); k++) {
            String name = text.get(k);
            long values = ((Number) row[5 * k]).longValue();
            long dates = ((Number) row[5 * k + 1]).longValue();
            long numbers = ((Number) row[5 * k + 2]).longValue();
            String reason;
            if (dates > 0 && dates * 2 >= values) {
                reason = mixed(name, values, dates, "dates in " + format, (String) row[5 * k + 3], "DATE");
            } else if (numbers > 0 && numbers * 2 >= values) {
                reason = mixed(name, values, numbers, "numbers", (String) row[5 * k + 4], "DOUBLE");
            } else {
                reason = "text";
            }
            reasons.put(name, reason);
            if (!reason.equals("text")) {
                progress.accept(String.format(Locale.ROOT, "%s: column \"%s\" loaded as VARCHAR: %s", file, name, reason));
            }
        }
    }

    private String mixed(String name, long values, long fitting, String what, String odd, String type) {
        if (odd == null) {
            return String.format(Locale.ROOT, "all %d sampled values are %s, but DuckDB read the column as text;"
                    + " types=%s:%s makes it %s", values, what, name, type, type);
        }
        OptionalLong line = lineOfValue(Optional.of(name), Optional.of(odd));
        return String.format(Locale.ROOT, "%d of %d sampled values are %s, the others are not (%s\"%s\"); types=%s:%s"
                        + " with rejects=TABLE loads them as %s and keeps the others aside",
                fitting, values, what, line.isPresent() ? "line " + line.getAsLong() + ": " : "",
                LoaderText.printable(odd, LoadErrors.VALUE_CHARS), name, type, type);
    }

    List<ColumnRename> renames() {
        return List.copyOf(renames);
    }

    /** Checks and sniffs the file and returns the SELECT that reads all of it. */
    String select(Connection connection) throws SQLException {
        List<String> header = firstRecord();
        List<Column> sniffed;
        try {
            sniffed = Ingestion.describe(connection, "SELECT * FROM " + call(Map.of(), null, Pass.CHECK));
        } catch (SQLException e) {
            throw explain(e);
        }
        List<String> sniffedNames = sniffed.stream().map(Column::name).toList();
        List<String> names = options.header() && header.size() == sniffed.size()
                ? namesFromHeader(header, sniffedNames) : sniffedNames;
        columnNames = names;
        List<String> passNames = names.equals(sniffedNames) ? null : names;
        LoadErrors.requireHintedColumns(hints.keySet(), names, file);

        Map<String, String> types = new LinkedHashMap<>(hints);
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            String hint = hintFor(name);
            String type = hint != null ? hint : sniffed.get(i).type();
            boolean decimal = hint == null && type.equals("DOUBLE");
            boolean strict = options.decimal() == ',' && TypeRules.isNumeric(type);
            if (decimal || strict) {
                candidates.add(new Candidate(i, name, hint != null, decimal, strict));
            }
        }
        if (!candidates.isEmpty()) {
            checkNumbers(connection, candidates, types, passNames);
        }
        explainText(connection, names, types, passNames);
        return "SELECT * FROM " + call(types, passNames, Pass.LOAD);
    }

    private record Candidate(int index, String name, boolean hinted, boolean decimal, boolean strict) {
    }

    /** One pass over the file that decides the DECIMAL columns and checks decimal-comma numbers. */
    private void checkNumbers(Connection connection, List<Candidate> candidates, Map<String, String> types,
                              List<String> names) throws SQLException {
        Map<String, String> asText = new LinkedHashMap<>(types);
        for (Candidate c : candidates) {
            asText.keySet().removeIf(k -> k.equalsIgnoreCase(c.name()));
            asText.put(c.name(), "VARCHAR");
        }
        char separator = options.decimal();
        String fixed = LoaderText.literal(separator == ',' ? FIXED_POINT_COMMA : FIXED_POINT);
        String decimals = LoaderText.literal((separator == ',' ? "," : "\\.") + "([0-9]+)$");
        List<String> aggregates = new ArrayList<>();
        for (Candidate c : candidates) {
            String q = LoaderText.identifier(c.name());
            aggregates.add(c.strict() ? "count(*) FILTER (WHERE " + q + " IS NOT NULL AND NOT regexp_full_match(" + q
                    + ", " + LoaderText.literal(NUMBER_COMMA) + "))" : "0");
            aggregates.add("bool_and(" + q + " IS NULL OR regexp_full_match(" + q + ", " + fixed + "))");
            aggregates.add("max(length(regexp_extract(" + q + ", " + decimals + ", 1)))");
        }
        String sql = "SELECT " + String.join(", ", aggregates) + " FROM " + call(asText, names, Pass.CHECK);
        Object[] row = new Object[aggregates.size()];
        try (Statement statement = connection.createStatement()) {
            watcher.run(statement, file + ": %d%% checked for number formats", () -> {
                try (ResultSet rs = statement.executeQuery(sql)) {
                    rs.next();
                    for (int i = 0; i < row.length; i++) {
                        row[i] = rs.getObject(i + 1);
                    }
                }
            });
        } catch (SQLException e) {
            throw explain(e);
        }
        for (int k = 0; k < candidates.size(); k++) {
            Candidate c = candidates.get(k);
            long badNumbers = ((Number) row[3 * k]).longValue();
            boolean allFixed = Boolean.TRUE.equals(row[3 * k + 1]);
            int scale = row[3 * k + 2] == null ? 0 : ((Number) row[3 * k + 2]).intValue();
            if (badNumbers > 0) {
                if (c.hinted()) {
                    throw LoadErrors.failed(String.format(Locale.ROOT,
                            "%s%s: a value in column \"%s\" is not a number written with decimal=, (digits, a ','"
                                    + " before the decimals, a '.' only between groups of three digits).",
                            file, lineOfBadNumber(c.index()), LoaderText.printable(c.name(), 80)));
                }
                types.keySet().removeIf(key -> key.equalsIgnoreCase(c.name()));
                types.put(c.name(), "VARCHAR");
                reasons.put(c.name(), "not every value is a number written with decimal=,");
                progress.accept(String.format(Locale.ROOT, "%s: column \"%s\" loaded as VARCHAR: not all its values"
                        + " are numbers written with decimal=,", file, c.name()));
            } else if (c.decimal() && allFixed && scale >= 1 && scale <= MAX_SCALE) {
                String type = "DECIMAL(" + DECIMAL_PRECISION + "," + scale + ")";
                types.put(c.name(), type);
                reasons.put(c.name(), "fixed-point numbers with at most " + scale + (scale == 1 ? " decimal" : " decimals"));
                progress.accept(String.format(Locale.ROOT, "%s: column \"%s\" holds fixed-point numbers: %s", file,
                        c.name(), type));
            }
        }
    }

    /** The header's names with repeats renamed; a blank header cell keeps DuckDB's name for it. */
    private List<String> namesFromHeader(List<String> header, List<String> sniffedNames) {
        List<String> bases = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            String text = header.get(i).trim();
            bases.add(text.isEmpty() ? sniffedNames.get(i) : text);
        }
        List<String> names = ColumnNames.unique(bases);
        for (int i = 0; i < names.size(); i++) {
            if (!names.get(i).equals(bases.get(i))) {
                renames.add(new ColumnRename(file, bases.get(i), names.get(i)));
                progress.accept(String.format(Locale.ROOT, "%s: column \"%s\" repeats an earlier name; loaded as \"%s\"",
                        file, bases.get(i), names.get(i)));
            }
        }
        return names;
    }

    private String hintFor(String column) {
        return hints.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(column))
                .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** What a read of the file is for: a check before the load, or the load itself. */
    private enum Pass { CHECK, LOAD }

    /**
     * The read_csv call with the pinned dialect, and optionally column names and types. With the
     * rejects option the load keeps the rows that do not fit in a temporary table of DuckDB's
     * ({@code store_rejects}), and the checks before it skip them ({@code ignore_errors}).
     */
    private String call(Map<String, String> types, List<String> names, Pass pass) {
        StringBuilder call = new StringBuilder("read_csv(").append(LoaderText.literal(path.toString()))
                .append(", header = ").append(options.header())
                .append(", delim = ").append(LoaderText.literal(delimiter))
                .append(", quote = '\"', skip = 0, allow_quoted_nulls = false");
        if (options.thousands() != null) {
            call.append(", decimal_separator = ").append(LoaderText.literal(String.valueOf(options.decimal())))
                    .append(", thousands = ").append(LoaderText.literal(options.thousands()));
        }
        // pinned, ISO unless the option says otherwise: DuckDB would otherwise guess the format from a
        // sample, and a guess taken from one odd value (31.02.2024) fails every ISO date, on line 2
        call.append(", dateformat = ").append(LoaderText.literal(options.dateFormat() != null ? options.dateFormat() : ISO_DATE));
        if (options.nullPadding()) {
            call.append(", null_padding = true");
        }
        if (options.rejects() != null) {
            call.append(pass == Pass.LOAD ? ", store_rejects = true, rejects_table = " + LoaderText.literal(rejectsTemp)
                    + ", rejects_scan = " + LoaderText.literal(rejectsTemp + "_scan") : ", ignore_errors = true");
        }
        if (names != null) {
            call.append(", names = [").append(names.stream().map(LoaderText::literal).collect(Collectors.joining(", ")))
                    .append(']');
        }
        if (!types.isEmpty()) {
            call.append(", types = {").append(types.entrySet().stream()
                    .map(e -> LoaderText.literal(e.getKey()) + ": " + LoaderText.literal(e.getValue()))
                    .collect(Collectors.joining(", "))).append('}');
        }
        return call.append(')').toString();
    }

    /** The first record as the file has it; an empty file or a broken first record is refused. */
    private List<String> firstRecord() {
        try (CsvScanner scanner = CsvScanner.open(path, gzip, delimiter)) {
            CsvScanner.Record first = scanner.next();
            if (first == null) {
                throw LoadErrors.failed(file + ", line 1: the file is empty" + (options.header()
                        ? "; a CSV needs a header line with the column names." : "."));
            }
            return first.fields();
        } catch (CsvScanner.UnterminatedQuote e) {
            throw LoadErrors.failed(unterminated(e.line()), e);
        } catch (IOException e) {
            throw LoadErrors.failed(file + " could not be read.", e);
        }
    }

    /**
     * DuckDB's error for this file, with the line found by scanning the file when DuckDB's own
     * message has none (its sniffer reports broken quoting and ragged rows of small files so).
     */
    GuardException explain(SQLException e) {
        if (LoadErrors.isConversion(e)) {
            // DuckDB counts records, not lines (a quoted line break is one record on two lines): the
            // line is the first one, scanning the file as it is, whose field holds the value DuckDB quotes
            OptionalLong line = lineOfValue(LoadErrors.convertedColumn(e), LoadErrors.convertedValue(e));
            if (line.isPresent()) {
                return LoadErrors.conversion(file, line.getAsLong(), e);
            }
        }
        GuardException mapped = LoadErrors.reading(file, format, e);
        if (mapped.code() != ErrorCode.LOAD_FAILED || LoadErrors.namesLine(e)) {
            return mapped;
        }
        return diagnose().map(message -> LoadErrors.failed(message, e)).orElse(mapped);
    }

    /** The first unterminated quote or record of the wrong width, scanning the whole file. */
    Optional<String> diagnose() {
        try (CsvScanner scanner = CsvScanner.open(path, gzip, delimiter)) {
            CsvScanner.Record first = scanner.next();
            if (first == null) {
                return Optional.empty();
            }
            int width = first.fields().size();
            for (CsvScanner.Record r = scanner.next(); r != null; r = scanner.next()) {
                if (r.fields().size() != width) {
                    return Optional.of(LoadErrors.wrongWidth(file, r.line(), r.fields().size(), width));
                }
            }
            return Optional.empty();
        } catch (CsvScanner.UnterminatedQuote q) {
            return Optional.of(unterminated(q.line()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private String unterminated(long line) {
        return String.format(Locale.ROOT, "%s, line %d: a quoted field is never closed (a \" without its closing \").",
                file, line);
    }

    /** The physical line of the first data record whose field in {@code column} is {@code value}. */
    private OptionalLong lineOfValue(Optional<String> column, Optional<String> value) {
        if (column.isEmpty() || value.isEmpty() || columnNames.isEmpty()) {
            return OptionalLong.empty();
        }
        int index = -1;
        for (int i = 0; i < columnNames.size(); i++) {
            if (columnNames.get(i).equalsIgnoreCase(column.get())) {
                index = i;
                break;
            }
        }
        if (index < 0) {
            return OptionalLong.empty();
        }
        try (CsvScanner scanner = CsvScanner.open(path, gzip, delimiter)) {
            CsvScanner.Record r = scanner.next();
            if (options.header() && r != null) {
                r = scanner.next();
            }
            for (; r != null; r = scanner.next()) {
                if (index < r.fields().size() && (r.fields().get(index).equals(value.get())
                        || r.fields().get(index).strip().equals(value.get().strip()))) {
                    return OptionalLong.of(r.line());
                }
            }
        } catch (CsvScanner.UnterminatedQuote | IOException e) {
            // DuckDB read past it: its own line stands
        }
        return OptionalLong.empty();
    }

    /**
     * The physical line of each of DuckDB's {@code lines}: DuckDB counts a record with quoted line
     * breaks as one line (and blank lines as lines), an editor counts every line break.
     */
    Map<Long, Long> physicalLines(java.util.Set<Long> lines) {
        Map<Long, Long> out = new java.util.HashMap<>();
        try (CsvScanner scanner = CsvScanner.open(path, gzip, delimiter)) {
            long inside = 0;
            for (CsvScanner.Record r = scanner.next(); r != null && out.size() < lines.size(); r = scanner.next()) {
                long logical = r.line() - inside;
                if (lines.contains(logical)) {
                    out.put(logical, r.line());
                }
                for (String field : r.fields()) {
                    inside += field.chars().filter(c -> c == '\n').count();
                }
            }
        } catch (CsvScanner.UnterminatedQuote | IOException e) {
            // DuckDB read it: its own numbers stand
        }
        return out;
    }

    /** ", line N" for the first data record whose field {@code index} breaks the decimal-comma rule. */
    private String lineOfBadNumber(int index) {
        Pattern number = Pattern.compile(NUMBER_COMMA);
        try (CsvScanner scanner = CsvScanner.open(path, gzip, delimiter)) {
            CsvScanner.Record r = scanner.next();
            if (options.header() && r != null) {
                r = scanner.next();
            }
            for (; r != null; r = scanner.next()) {
                if (index < r.fields().size()) {
                    String value = r.fields().get(index);
                    if (!value.isEmpty() && !number.matcher(value).matches()) {
                        return ", line " + r.line();
                    }
                }
            }
        } catch (CsvScanner.UnterminatedQuote | IOException e) {
            // DuckDB read the file; the line is only a courtesy
        }
        return "";
    }
}
