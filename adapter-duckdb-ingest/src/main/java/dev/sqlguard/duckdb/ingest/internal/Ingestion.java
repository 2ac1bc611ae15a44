package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadReport.ColumnRename;
import dev.sqlguard.ports.ingest.LoadRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;


/**
 * One load, start to end. Every input goes into a staging table inside a single transaction; the
 * staging table then replaces the target (DROP + RENAME) or is appended to it (INSERT BY NAME), and
 * the transaction commits. Any failure rolls the whole transaction back, so the staging table never
 * reaches the database file and the target stays exactly as it was. The read-write connection is
 * closed before {@link #run()} returns.
 */
public final class Ingestion {
    private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    /** Characters DuckDB's file readers take as a glob pattern (or, for the backslash, a separator). */
    private static final Pattern GLOB = Pattern.compile("[*?\\[\\]{}\\\\]");
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final ConcurrentHashMap<Path, Object> LOCKS = new ConcurrentHashMap<>();

    /** One input file: where it is, how to name it in messages, how to read it. */
    record Input(Path path, String display, InputFormat format, boolean gzip) {
        Input {
            requireNonNull(path, "path is null");
            requireNonNull(display, "display is null");
            requireNonNull(format, "format is null");
        }
    }

    private final Path database;
    private final String table;
    private final List<Input> inputs;
    private final boolean replace;
    private final LoadOptions options;
    private final Consumer<String> progress;
    private final List<Path> links = new ArrayList<>();
    private Path linkFolder;

    private Ingestion(Path database, String table, List<Input> inputs, boolean replace, LoadOptions options,
                      Consumer<String> progress) {
        this.database = database;
        this.table = table;
        this.inputs = List.copyOf(inputs);
        this.replace = replace;
        this.options = options;
        this.progress = progress;
    }

    /** Checks everything that can be checked without opening the database. */
    public static Ingestion plan(LoadRequest request) {
        requireNonNull(request, "request is null");
        String table = checkTableName(request.table());
        LoadOptions options = LoadOptions.parse(request.options());
        Path database = checkDatabase(request.database());
        List<Input> inputs = new ArrayList<>();
        for (Path path : request.inputs()) {
            inputs.add(checkInput(path, options));
        }
        refuseUnusedOption(request.options(), LoadOptions.HEADER, inputs, InputFormat::usesHeader);
        refuseUnusedOption(request.options(), LoadOptions.DELIMITER, inputs, InputFormat::usesDelimiter);
        refuseUnusedOption(request.options(), LoadOptions.SHEET, inputs, InputFormat::usesSheet);
        refuseUnusedOption(request.options(), LoadOptions.DECIMAL, inputs, InputFormat::usesDelimiter);
        refuseUnusedOption(request.options(), LoadOptions.DATE_FORMAT, inputs, InputFormat::usesDelimiter);
        refuseUnusedOption(request.options(), LoadOptions.REJECTS, inputs, InputFormat::usesDelimiter);
        refuseUnusedOption(request.options(), LoadOptions.NULL_PADDING, inputs, InputFormat::usesDelimiter);
        if (options.rejects() != null && options.rejects().equalsIgnoreCase(table)) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT, "The rejects option must name another table than the one loaded.");
        }
        return new Ingestion(database, table, inputs, request.replace(), options, request.progress());
    }

    static String checkTableName(String table) {
        if (!TABLE_NAME.matcher(table).matches()) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT, "Invalid table name '" + LoaderText.printable(table, 70)
                    + "': use 1 to 63 letters, digits and underscores, starting with a letter or an underscore.");
        }
        return table;
    }

    private static Path checkDatabase(Path given) {
        Path database = given.toAbsolutePath().normalize();
        if (database.toString().indexOf(';') >= 0) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "The database path must not contain ';' (the DuckDB driver reads it as a setting).");
        }
        Path parent = database.getParent();
        if (parent == null || !Files.isDirectory(parent)) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "The folder for the database file does not exist: " + LoaderText.printable(String.valueOf(parent), 300));
        }
        if (Files.isDirectory(database)) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT,
                    "The database path is a folder: " + LoaderText.printable(database.toString(), 300));
        }
        return database;
    }

    private static Input checkInput(Path given, LoadOptions options) {
        Path path = given.toAbsolutePath().normalize();
        Path fileName = path.getFileName();
        String display = LoaderText.printable(fileName == null ? path.toString() : fileName.toString(), 120);
        InputFormat format = options.format().or(() -> InputFormat.fromFileName(display)).orElseThrow(() ->
                new GuardException(ErrorCode.INVALID_ARGUMENT, "Cannot tell the format of " + display
                        + " from its extension; supported: " + InputFormat.supportedList()
                        + ". Set the format option to override."));
        if (!Files.isRegularFile(path)) {
            throw LoadErrors.failed("Input file not found: " + LoaderText.printable(given.toString(), 300) + ".");
        }
        if (!Files.isReadable(path)) {
            throw LoadErrors.failed("Input file cannot be read: " + LoaderText.printable(given.toString(), 300) + ".");
        }
        boolean gzip = display.toLowerCase(Locale.ROOT).endsWith(".gz");
        return new Input(path, display, format, gzip);
    }

    private static void refuseUnusedOption(Map<String, String> given, String option, List<Input> inputs,
                                           Predicate<InputFormat> uses) {
        if (LoadOptions.given(given, option) && inputs.stream().map(Input::format).noneMatch(uses)) {
            throw new GuardException(ErrorCode.INVALID_ARGUMENT, "The " + option + " option does not apply to "
                    + inputs.stream().map(i -> i.format().optionName()).distinct().collect(Collectors.joining(", "))
                    + " input.");
        }
    }

    /**
     * Runs the load; the database is unchanged unless this returns normally. Loads into one file
     * from this process take turns: two writers would share one DuckDB instance and its settings.
     */
    public LoadReport run() {
        synchronized (LOCKS.computeIfAbsent(database, path -> new Object())) {
            return runAlone();
        }
    }

    private LoadReport runAlone() {
        boolean existed = Files.exists(database);
        try {
            List<Path> readPaths = readPaths();
            progress.accept(String.format(Locale.ROOT, "Loading %d file(s) into table \"%s\" of %s (%s)",
                    inputs.size(), table, database, replace ? "replace" : "append"));
            Connection connection = open();
            LoadReport report;
            try {
                report = load(connection, readPaths);
            } catch (RuntimeException | Error e) {
                closeQuietly(connection);
                throw e;
            }
            try {
                connection.close();
            } catch (SQLException e) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR,
                        "The rows were committed, but the database connection did not close cleanly.", e);
            }
            return report;
        } catch (GuardException e) {
            if (!existed && e.code() != ErrorCode.INTERNAL_ERROR) {
                removeNewDatabase();
            }
            throw e;
        } catch (RuntimeException e) {
            // e.g. a progress consumer that throws: the transaction was rolled back all the same
            if (!existed) {
                removeNewDatabase();
            }
            throw LoadErrors.failed("The load stopped on an unexpected error.", e);
        } finally {
            removeLinks();
        }
    }

    private Connection open() {
        Properties properties = new Properties();
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
        try {
            // DuckDB's own driver, not DriverManager, which would load every JDBC driver on the class path
            Connection connection = new org.duckdb.DuckDBDriver().connect("jdbc:duckdb:" + database, properties);
            if (connection == null) {
                throw new SQLException("not a DuckDB URL");
            }
            return connection;
        } catch (SQLException e) {
            throw LoadErrors.opening(e);
        }
    }

    private LoadReport load(Connection connection, List<Path> readPaths) {
        boolean committed = false;
        try {
            restrictFileAccess(connection, readPaths);
            connection.setAutoCommit(false);
            Map<String, String> hints = canonicalHints(connection);
            DuckDBConnection duck = connection.unwrap(DuckDBConnection.class);
            String stage = "sqlguard_stage_" + randomHex();
            List<Column> stageColumns = null;
            List<ColumnRename> renames = new ArrayList<>();
            Map<String, String> reasons = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            long loaded = 0;
            boolean rejectsMade = false;
            for (int i = 0; i < inputs.size(); i++) {
                Input input = inputs.get(i);
                long start = System.nanoTime();
                progress.accept(String.format(Locale.ROOT, "Reading %s (%s, %s)", input.display(), input.format(),
                        size(input.path())));
                long rows;
                CsvReader csv = input.format().usesDelimiter()
                        ? new CsvReader(readPaths.get(i), input.display(), input.format(), input.gzip(), options, hints,
                                progress, this::watched)
                        : null;
                try {
                    String scratch = "sqlguard_xlsx_" + randomHex();
                    String select;
                    if (input.format() == InputFormat.XLSX) {
                        XlsxStager stager = new XlsxStager(duck, input.display(), options, hints, progress);
                        select = stager.stage(readPaths.get(i), scratch);
                        renames.addAll(stager.renames());
                        hints.keySet().forEach(h -> reasons.putIfAbsent(h, "types option"));
                    } else if (csv != null) {
                        select = csv.select(connection);
                        renames.addAll(csv.renames());
                        csv.reasons().forEach(reasons::putIfAbsent);
                    } else {
                        select = readerSelect(connection, input, readPaths.get(i), hints);
                        hints.keySet().forEach(h -> reasons.putIfAbsent(h, "types option"));
                    }
                    String sql = stageColumns == null
                            ? "CREATE TABLE " + LoaderText.identifier(stage) + " AS " + select
                            : "INSERT INTO " + LoaderText.identifier(stage) + " BY NAME " + select;
                    if (stageColumns != null) {
                        reconcile(connection, stage, stageColumns, describe(connection, select), input.display());
                    }
                    if (input.format() == InputFormat.XLSX) {
                        execute(connection, sql);
                        execute(connection, "DROP TABLE temp.main." + LoaderText.identifier(scratch));
                    } else {
                        try (Statement statement = connection.createStatement()) {
                            watched(statement, input.display() + ": %d%% read", () -> statement.execute(sql));
                        }
                    }
                    if (csv != null && options.rejects() != null) {
                        if (!rejectsMade) {
                            execute(connection, "CREATE OR REPLACE TABLE main." + LoaderText.identifier(options.rejects())
                                    + " (file VARCHAR, line BIGINT, \"column\" VARCHAR, error VARCHAR, row_text VARCHAR, message VARCHAR)");
                            rejectsMade = true;
                        }
                        keepRejects(connection, csv, input.display());
                    }
                    stageColumns = columnsOf(connection, stage);
                    long total = count(connection, stage);
                    rows = total - loaded;
                    loaded = total;
                } catch (SQLException e) {
                    throw csv != null ? csv.explain(e) : LoadErrors.reading(input.display(), input.format(), e);
                }
                progress.accept(String.format(Locale.ROOT, "%s: %,d rows in %.1f s", input.display(), rows,
                        (System.nanoTime() - start) / 1e9));
            }
            LoadReport report = withTypes(connection, swapIn(connection, stage, stageColumns, loaded, renames), reasons);
            connection.commit();
            committed = true;
            progress.accept(committedLine(report));
            return report;
        } catch (SQLException e) {
            throw LoadErrors.general("The load into table \"" + table + "\"", e);
        } finally {
            if (!committed) {
                rollbackQuietly(connection);
            }
        }
    }

    /** DuckDB's rejected rows of one CSV input, with the file's physical lines, into the rejects table. */
    private void keepRejects(Connection connection, CsvReader csv, String file) throws SQLException {
        record Reject(long line, String column, String error, String row, String message) {
        }
        List<Reject> rejects = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT line, column_name, error_type, csv_line, error_message FROM "
                     + LoaderText.identifier(csv.rejectsTemp()) + " ORDER BY line")) {
            while (rs.next()) {
                String message = String.valueOf(rs.getString(5));
                int end = message.indexOf('\n');
                rejects.add(new Reject(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        end < 0 ? message : message.substring(0, end)));
            }
        }
        execute(connection, "DROP TABLE IF EXISTS " + LoaderText.identifier(csv.rejectsTemp()));
        execute(connection, "DROP TABLE IF EXISTS " + LoaderText.identifier(csv.rejectsTemp() + "_scan"));
        if (rejects.isEmpty()) {
            return;
        }
        Map<Long, Long> lines = csv.physicalLines(rejects.stream().map(Reject::line).collect(Collectors.toSet()));
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO main." + LoaderText.identifier(options.rejects())
                + " VALUES (?, ?, ?, ?, ?, ?)")) {
            for (Reject r : rejects) {
                insert.setString(1, file);
                insert.setLong(2, lines.getOrDefault(r.line(), r.line()));
                insert.setString(3, r.column());
                insert.setString(4, r.error());
                insert.setString(5, r.row());
                insert.setString(6, r.message());
                insert.addBatch();
            }
            insert.executeBatch();
        }
        long rows = rejects.stream().map(Reject::line).distinct().count();
        progress.accept(String.format(Locale.ROOT, "%s: %,d row%s did not load; kept in table \"%s\" with the reason",
                file, rows, rows == 1 ? "" : "s", options.rejects()));
    }

    /** The report with each column's type and why, and the rejected rows; each column said in a progress line. */
    private LoadReport withTypes(Connection connection, LoadReport report, Map<String, String> reasons) throws SQLException {
        List<LoadReport.ColumnType> types = new ArrayList<>();
        for (Column column : columnsOf(connection, report.table())) {
            String reason = report.mode() == LoadReport.Mode.APPENDED ? "the table's type (appended)"
                    : reasons.getOrDefault(column.name(), inputs.get(0).format() == InputFormat.PARQUET ? "the Parquet file's type"
                    : inputs.get(0).format() == InputFormat.XLSX ? "inferred from the sheet's cells" : "inferred by DuckDB from the values");
            types.add(new LoadReport.ColumnType(column.name(), column.type(), reason));
            progress.accept(String.format(Locale.ROOT, "Column \"%s\": %s (%s)", column.name(), column.type(), reason));
        }
        long rejected = 0;
        if (options.rejects() != null) {
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT count(DISTINCT (file, line)) FROM main."
                         + LoaderText.identifier(options.rejects()))) {
                rs.next();
                rejected = rs.getLong(1);
            }
        }
        return new LoadReport(report.table(), report.rowsLoaded(), report.rowsInTable(), report.columns(), report.mode(),
                report.renames(), types, rejected, Optional.ofNullable(options.rejects()));
    }

    /** The summary line: what happened to the table, in words. */
    static String committedLine(LoadReport report) {
        String rows = String.format(Locale.ROOT, "%,d row%s", report.rowsLoaded(), report.rowsLoaded() == 1 ? "" : "s");
        String table = "table \"" + report.table() + "\"";
        return switch (report.mode()) {
            case CREATED -> String.format(Locale.ROOT, "Committed: created %s with %s", table, rows);
            case REPLACED -> String.format(Locale.ROOT, "Committed: replaced %s; it now has %s (replace)", table,
                    rows);
            case APPENDED -> String.format(Locale.ROOT, "Committed: appended %s to %s; it now has %,d rows"
                    + " (append is the default; --replace swaps the table)", rows, table, report.rowsInTable());
        };
    }

    /** Runs {@code call} on {@code statement} while a poller reports DuckDB's progress as {@code what}. */
    private void watched(Statement statement, String what, CsvReader.SqlCall call) throws SQLException {
        try (ProgressPoller poller = ProgressPoller.start(statement, what, progress)) {
            call.run();
        }
    }

    /**
     * Defence in depth for trusted code: DuckDB may open only the input files (and its own database
     * files), so a path that DuckDB would read as a pattern can never reach another file.
     */
    private void restrictFileAccess(Connection connection, List<Path> readPaths) throws SQLException {
        List<String> allowed = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            if (inputs.get(i).format().readByDuckDb()) {
                allowed.add(LoaderText.literal(readPaths.get(i).toString()));
            }
        }
        execute(connection, "SET allowed_paths = [" + String.join(", ", allowed) + "]");
        execute(connection, "SET enable_external_access = false");
        // DuckDB tracks a statement's progress only with the progress bar on; it must not print it
        execute(connection, "SET enable_progress_bar = true");
        execute(connection, "SET enable_progress_bar_print = false");
    }

    /** Asks DuckDB for the canonical name of each hinted type; an unknown type is the operator's mistake. */
    private Map<String, String> canonicalHints(Connection connection) {
        Map<String, String> hints = new LinkedHashMap<>();
        for (Map.Entry<String, String> hint : options.types().entrySet()) {
            try (Statement statement = connection.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT CAST(NULL AS " + hint.getValue() + ")")) {
                hints.put(hint.getKey(), rs.getMetaData().getColumnTypeName(1));
            } catch (SQLException e) {
                rollbackQuietly(connection);
                throw new GuardException(ErrorCode.INVALID_ARGUMENT, "Unknown type '" + hint.getValue()
                        + "' for column '" + LoaderText.printable(hint.getKey(), 60) + "' in the types option.", e);
            }
        }
        return hints;
    }

    /** The SELECT over DuckDB's Parquet or JSON reader, with the (canonical) type hints applied. */
    private static String readerSelect(Connection connection, Input input, Path readPath, Map<String, String> hints)
            throws SQLException {
        String file = LoaderText.literal(readPath.toString());
        String reader = switch (input.format()) {
            case PARQUET -> "read_parquet(" + file + ")";
            case JSON -> "read_json(" + file + ", format = 'auto')";
            case NDJSON -> "read_json(" + file + ", format = 'newline_delimited')";
            default -> throw new IllegalStateException("not a DuckDB reader format: " + input.format());
        };
        if (hints.isEmpty()) {
            return "SELECT * FROM " + reader;
        }
        LoadErrors.requireHintedColumns(hints.keySet(),
                describe(connection, "SELECT * FROM " + reader).stream().map(Column::name).toList(), input.display());
        return "SELECT * REPLACE (" + hints.entrySet().stream()
                .map(e -> "CAST(" + LoaderText.identifier(e.getKey()) + " AS " + e.getValue() + ") AS "
                        + LoaderText.identifier(e.getKey()))
                .collect(Collectors.joining(", ")) + ") FROM " + reader;
    }

    /** A later input must have the earlier inputs' columns; the staging column widens if needed. */
    private static void reconcile(Connection connection, String stage, List<Column> stageColumns,
                                  List<Column> incoming, String file) throws SQLException {
        if (!sameNames(stageColumns, incoming)) {
            throw LoadErrors.failed(file + " has columns " + names(incoming) + " but the earlier input(s) have "
                    + names(stageColumns) + "; all inputs of one load need the same columns.");
        }
        for (Column column : incoming) {
            Column staged = find(stageColumns, column.name());
            if (TypeRules.widens(column.type(), staged.type()) || TypeRules.widensChecked(column.type(), staged.type())) {
                continue;
            }
            if (!TypeRules.widens(staged.type(), column.type()) && !TypeRules.widensChecked(staged.type(), column.type())) {
                throw LoadErrors.failed(String.format(Locale.ROOT,
                        "Column \"%s\" is %s in %s but %s in the earlier input(s); add a type hint (types=%s:%s).",
                        column.name(), column.type(), file, staged.type(), column.name(), staged.type()));
            }
            execute(connection, "ALTER TABLE " + LoaderText.identifier(stage) + " ALTER COLUMN "
                    + LoaderText.identifier(staged.name()) + " SET DATA TYPE " + column.type());
        }
    }

    private LoadReport swapIn(Connection connection, String stage, List<Column> stageColumns, long loaded,
                              List<ColumnRename> renames) {
        String what = "Moving the new rows into table \"" + table + "\"";
        try {
            Target target = target(connection);
            String quotedStage = LoaderText.identifier(stage);
            if (target == null) {
                execute(connection, "ALTER TABLE " + quotedStage + " RENAME TO " + LoaderText.identifier(table));
                return report(connection, table, loaded, LoadReport.Mode.CREATED, renames);
            }
            if (target.view()) {
                throw LoadErrors.failed("A view named \"" + target.name() + "\" exists; load into another table name.");
            }
            String quotedTarget = LoaderText.identifier(target.name());
            if (replace) {
                execute(connection, "DROP TABLE main." + quotedTarget);
                execute(connection, "ALTER TABLE " + quotedStage + " RENAME TO " + LoaderText.identifier(table));
                return report(connection, table, loaded, LoadReport.Mode.REPLACED, renames);
            }
            checkAppend(connection, stage, stageColumns, columnsOf(connection, target.name()), target.name());
            execute(connection, "INSERT INTO main." + quotedTarget + " BY NAME SELECT * FROM " + quotedStage);
            execute(connection, "DROP TABLE " + quotedStage);
            return report(connection, target.name(), loaded, LoadReport.Mode.APPENDED, renames);
        } catch (SQLException e) {
            throw LoadErrors.general(what, e);
        }
    }

    private static void checkAppend(Connection connection, String stage, List<Column> incoming, List<Column> existing,
                                    String target) throws SQLException {
        if (!sameNames(incoming, existing)) {
            throw LoadErrors.failed("Cannot append to table \"" + target + "\": the input has columns "
                    + names(incoming) + " but the table has " + names(existing)
                    + ". Make the columns match or load with replace.");
        }
        for (Column column : incoming) {
            Column have = find(existing, column.name());
            if (!TypeRules.widens(column.type(), have.type()) && !TypeRules.widensChecked(column.type(), have.type())
                    && !allNull(connection, stage, column.name())) {
                throw LoadErrors.failed(String.format(Locale.ROOT,
                        "Cannot append to table \"%s\": column \"%s\" is %s in the input but %s in the table."
                                + " Add a type hint (types=%s:%s) or load with replace.",
                        target, column.name(), column.type(), have.type(), column.name(), have.type()));
            }
        }
    }

    private record Target(String name, boolean view) {
        Target {
            requireNonNull(name, "name is null");
        }
    }

    private Target target(Connection connection) throws SQLException {
        String sql = "SELECT table_name, false FROM duckdb_tables() WHERE database_name = current_database()"
                + " AND schema_name = 'main' AND NOT temporary AND lower(table_name) = lower(?)"
                + " UNION ALL SELECT view_name, true FROM duckdb_views() WHERE database_name = current_database()"
                + " AND schema_name = 'main' AND NOT internal AND NOT temporary AND lower(view_name) = lower(?)";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, table);
            statement.setString(2, table);
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? new Target(rs.getString(1), rs.getBoolean(2)) : null;
            }
        }
    }

    private static LoadReport report(Connection connection, String name, long loaded, LoadReport.Mode mode,
                                     List<ColumnRename> renames) throws SQLException {
        List<String> columns = columnsOf(connection, name).stream().map(Column::name).toList();
        return new LoadReport(name, loaded, count(connection, name), columns, mode, renames);
    }

    private static List<Column> columnsOf(Connection connection, String name) throws SQLException {
        String sql = "SELECT column_name, data_type FROM duckdb_columns() WHERE database_name = current_database()"
                + " AND schema_name = 'main' AND table_name = ? ORDER BY column_index";
        List<Column> columns = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, name);
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    columns.add(new Column(rs.getString(1), rs.getString(2)));
                }
            }
        }
        return columns;
    }

    /** The columns and types a SELECT would produce, from DuckDB's DESCRIBE (for a CSV this runs the sniffer). */
    static List<Column> describe(Connection connection, String select) throws SQLException {
        List<Column> columns = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("DESCRIBE " + select)) {
            while (rs.next()) {
                columns.add(new Column(rs.getString("column_name"), rs.getString("column_type")));
            }
        }
        return columns;
    }

    private static long count(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT count(*) FROM main." + LoaderText.identifier(name))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean allNull(Connection connection, String stage, String column) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT count(" + LoaderText.identifier(column) + ") FROM "
                     + LoaderText.identifier(stage))) {
            rs.next();
            return rs.getLong(1) == 0;
        }
    }

    private static boolean sameNames(List<Column> a, List<Column> b) {
        return lowerNames(a).equals(lowerNames(b)) && a.size() == b.size();
    }

    private static Set<String> lowerNames(List<Column> columns) {
        return columns.stream().map(c -> c.name().toLowerCase(Locale.ROOT)).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String names(List<Column> columns) {
        return columns.stream().map(Column::name).toList().toString();
    }

    private static Column find(List<Column> columns, String name) {
        return columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("column vanished: " + name));
    }

    /**
     * The path DuckDB opens for each input. A path with glob characters would be read as a pattern
     * (report[1].csv matches report1.csv), so such a file is read through a symbolic link with a
     * plain name in a private temporary folder.
     */
    private List<Path> readPaths() {
        List<Path> paths = new ArrayList<>();
        for (Input input : inputs) {
            Path path = input.path();
            if (!input.format().readByDuckDb() || !GLOB.matcher(path.toString()).find()) {
                paths.add(path);
                continue;
            }
            try {
                if (linkFolder == null) {
                    linkFolder = Files.createTempDirectory("sqlguard-load-");
                }
                Path link = linkFolder.resolve("input-" + paths.size() + "." + input.format().optionName()
                        + (input.gzip() ? ".gz" : ""));
                Files.createSymbolicLink(link, path.toRealPath());
                links.add(link);
                if (GLOB.matcher(link.toString()).find()) {
                    throw new IOException("temporary folder has pattern characters");
                }
                paths.add(link);
            } catch (IOException | UnsupportedOperationException | SecurityException e) {
                throw new GuardException(ErrorCode.INVALID_ARGUMENT, "The path of " + input.display()
                        + " contains characters DuckDB reads as a file pattern (* ? [ ] { } \\); rename the file.", e);
            }
        }
        return paths;
    }

    private void removeLinks() {
        for (Path link : links) {
            deleteQuietly(link);
        }
        if (linkFolder != null) {
            deleteQuietly(linkFolder);
        }
    }

    /** A failed load into a database that did not exist leaves no file behind. */
    private void removeNewDatabase() {
        deleteQuietly(database);
        deleteQuietly(Path.of(database + ".wal"));
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // a leftover empty file or link is harmless; the load result stands
        }
    }

    private static String size(Path path) {
        try {
            long bytes = Files.size(path);
            return bytes >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MB", bytes / 1048576.0)
                    : String.format(Locale.ROOT, "%,d bytes", bytes);
        } catch (IOException e) {
            return "size unknown";
        }
    }

    private static String randomHex() {
        return Long.toHexString(RANDOM.nextLong() & Long.MAX_VALUE);
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } catch (SQLException e) {
            // closing the connection discards the open transaction anyway
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            // nothing was committed; the close only releases the file
        }
    }
}
