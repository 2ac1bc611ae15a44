package dev.sqlguard.duckdb.ingest.internal;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport.ColumnRename;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import javax.xml.parsers.ParserConfigurationException;
import org.apache.poi.openxml4j.exceptions.OpenXML4JException;
import org.apache.poi.openxml4j.opc.OPCPackage;
import org.apache.poi.openxml4j.opc.PackageAccess;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.util.XMLHelper;
import org.apache.poi.xssf.eventusermodel.ReadOnlySharedStringsTable;
import org.apache.poi.xssf.eventusermodel.XSSFReader;
import org.apache.poi.xssf.model.StylesTable;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.xml.sax.Attributes;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.XMLReader;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Reads one sheet of an .xlsx workbook in Java (DuckDB's excel extension cannot be installed
 * offline) and appends its rows through DuckDB's Appender into a temporary table of text columns,
 * while inferring each column's type. The result is a SELECT that casts every column to its type
 * (or the operator's type hint); DuckDB then copies it into the staging table like any reader.
 * The temporary table lives outside the database file and is dropped with the connection.
 */
public final class XlsxStager {
    static final int PROGRESS_EVERY_ROWS = 100_000;
    private static final String ROW_COLUMN = "sqlguard_row";

    private final DuckDBConnection connection;
    private final String file;
    private final LoadOptions options;
    private final Map<String, String> hints;
    private final Consumer<String> progress;
    private final List<ColumnRename> renames = new ArrayList<>();

    /**
     * @param hints canonical type hints by column name (DuckDB has already confirmed each type)
     */
    public XlsxStager(DuckDBConnection connection, String file, LoadOptions options, Map<String, String> hints,
                      Consumer<String> progress) {
        this.connection = requireNonNull(connection, "connection is null");
        this.file = requireNonNull(file, "file is null");
        this.options = requireNonNull(options, "options is null");
        this.hints = requireNonNull(hints, "hints is null");
        this.progress = requireNonNull(progress, "progress is null");
    }

    /** Columns renamed because their header repeated an earlier one, known after {@link #stage}. */
    public List<ColumnRename> renames() {
        return List.copyOf(renames);
    }

    /** Loads the chosen sheet into {@code temp.main.<rawTable>} and returns the casting SELECT. */
    public String stage(Path path, String rawTable) throws SQLException {
        OPCPackage pkg = null;
        try {
            pkg = OPCPackage.open(path.toFile(), PackageAccess.READ);
            XSSFReader reader = new XSSFReader(pkg);
            ReadOnlySharedStringsTable strings = new ReadOnlySharedStringsTable(pkg, false);
            StylesTable styles = reader.getStylesTable();
            boolean date1904;
            try (InputStream workbook = reader.getWorkbookData()) {
                date1904 = isDate1904(workbook);
            }
            String sheet = chooseSheet(sheetNames(reader));
            RawTable raw = new RawTable(rawTable, sheet);
            XlsxSheetHandler handler = new XlsxSheetHandler(strings, styles, date1904, raw);
            try (InputStream data = openSheet(reader, sheet)) {
                XMLReader xml = XMLHelper.newXMLReader();
                xml.setContentHandler(handler);
                xml.parse(new InputSource(data));
            }
            raw.finish();
            if (handler.errorCells() > 0) {
                progress.accept(String.format(Locale.ROOT, "%s, sheet '%s': %,d error cells (#N/A, #DIV/0!, ...) loaded as NULL",
                        file, sheet, handler.errorCells()));
            }
            return raw.castingSelect();
        } catch (SAXException e) {
            if (e.getException() instanceof SQLException sql) {
                throw sql;
            }
            throw LoadErrors.failed(file + " is not a readable .xlsx workbook.", e);
        } catch (IOException | OpenXML4JException | ParserConfigurationException e) {
            throw LoadErrors.failed(file + " is not a readable .xlsx workbook.", e);
        } catch (GuardException e) {
            throw e;
        } catch (RuntimeException e) {
            // POI reports broken or foreign files (an .xls, an encrypted workbook) as runtime exceptions
            throw LoadErrors.failed(file + " is not a readable .xlsx workbook.", e);
        } finally {
            if (pkg != null) {
                pkg.revert(); // a package opened for reading is released without saving
            }
        }
    }

    private static List<String> sheetNames(XSSFReader reader) throws IOException, OpenXML4JException {
        List<String> names = new ArrayList<>();
        XSSFReader.SheetIterator sheets = reader.getSheetIterator();
        while (sheets.hasNext()) {
            try (InputStream ignored = sheets.next()) {
                names.add(sheets.getSheetName());
            }
        }
        return names;
    }

    private String chooseSheet(List<String> names) {
        if (names.isEmpty()) {
            throw LoadErrors.failed(file + " has no worksheet.");
        }
        String wanted = options.sheet();
        if (wanted == null) {
            return names.get(0);
        }
        for (String name : names) {
            if (name.equals(wanted)) {
                return name;
            }
        }
        for (String name : names) {
            if (name.equalsIgnoreCase(wanted.trim())) {
                return name;
            }
        }
        if (wanted.trim().matches("\\d{1,5}")) {
            int position = Integer.parseInt(wanted.trim());
            if (position >= 1 && position <= names.size()) {
                return names.get(position - 1);
            }
        }
        throw LoadErrors.failed(file + " has no sheet '" + LoaderText.printable(wanted, 60) + "'; its sheets are "
                + names + ".");
    }

    private static InputStream openSheet(XSSFReader reader, String sheet) throws IOException, OpenXML4JException {
        XSSFReader.SheetIterator sheets = reader.getSheetIterator();
        while (sheets.hasNext()) {
            InputStream data = sheets.next();
            if (sheets.getSheetName().equals(sheet)) {
                return data;
            }
            data.close();
        }
        throw new IOException("sheet disappeared");
    }

    private static boolean isDate1904(InputStream workbook)
            throws IOException, SAXException, ParserConfigurationException {
        boolean[] date1904 = {false};
        XMLReader xml = XMLHelper.newXMLReader();
        xml.setContentHandler(new DefaultHandler() {
            @Override
            public void startElement(String uri, String localName, String qName, Attributes attributes) {
                if ("workbookPr".equals(localName) || qName.endsWith("workbookPr")) {
                    String value = attributes.getValue("date1904");
                    date1904[0] = "1".equals(value) || "true".equalsIgnoreCase(value);
                }
            }
        });
        xml.parse(new InputSource(workbook));
        return date1904[0];
    }

    /** The temporary table of text columns, grown as wider rows appear. */
    private final class RawTable implements XlsxSheetHandler.RowSink {
        private final String name;
        private final String sheet;
        private final List<ColumnProfile> profiles = new ArrayList<>();
        private final List<String> headerNames = new ArrayList<>();
        private boolean headerPending = options.header();
        private DuckDBAppender appender;
        private long rows;

        RawTable(String name, String sheet) throws SQLException {
            this.name = name;
            this.sheet = sheet;
            execute("CREATE TEMP TABLE " + LoaderText.identifier(name) + " (" + ROW_COLUMN + " BIGINT)");
        }

        @Override
        public void row(int rowNumber, List<XlsxCell> cells) throws SQLException {
            if (cells.stream().allMatch(c -> c == null)) {
                return;
            }
            if (headerPending) {
                headerPending = false;
                for (XlsxCell cell : cells) {
                    headerNames.add(cell == null ? null : cell.text().trim());
                }
                widen(cells.size());
                return;
            }
            widen(cells.size());
            appender.beginRow();
            appender.append((long) rowNumber);
            for (int i = 0; i < profiles.size(); i++) {
                XlsxCell cell = i < cells.size() ? cells.get(i) : null;
                if (cell == null) {
                    appender.appendNull();
                } else {
                    appender.append(cell.text());
                    profiles.get(i).observe(cell);
                }
            }
            appender.endRow();
            rows++;
            if (rows % PROGRESS_EVERY_ROWS == 0) {
                progress.accept(String.format(Locale.ROOT, "%s, sheet '%s': %,d rows read", file, sheet, rows));
            }
        }

        /** Adds text columns up to {@code width}; the Appender is reopened to see them. */
        private void widen(int width) throws SQLException {
            if (width <= profiles.size() && appender != null) {
                return;
            }
            if (appender != null) {
                appender.close();
                appender = null;
            }
            for (int i = profiles.size(); i < width; i++) {
                execute("ALTER TABLE temp.main." + LoaderText.identifier(name) + " ADD COLUMN c" + i + " VARCHAR");
                profiles.add(new ColumnProfile());
            }
            appender = connection.createAppender("temp", "main", name);
        }

        void finish() throws SQLException {
            if (appender != null) {
                appender.close();
                appender = null;
            }
            if (profiles.isEmpty()) {
                throw LoadErrors.failed(file + ", sheet '" + sheet + "' has no data.");
            }
        }

        String castingSelect() throws SQLException {
            List<String> names = columnNames();
            LoadErrors.requireHintedColumns(hints.keySet(), names, file);
            StringBuilder select = new StringBuilder("SELECT ");
            for (int i = 0; i < names.size(); i++) {
                String column = names.get(i);
                String hint = hintFor(column);
                if (hint != null) {
                    checkHint(i, column, hint);
                }
                String type = hint != null ? hint : profiles.get(i).type();
                select.append(i == 0 ? "" : ", ").append("CAST(c").append(i).append(" AS ").append(type)
                        .append(") AS ").append(LoaderText.identifier(column));
            }
            return select.append(" FROM temp.main.").append(LoaderText.identifier(name)).toString();
        }

        private String hintFor(String column) {
            return hints.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(column))
                    .map(Map.Entry::getValue).findFirst().orElse(null);
        }

        /** Names the first sheet row whose value does not convert to the hinted type. */
        private void checkHint(int index, String column, String type) throws SQLException {
            String sql = "SELECT min(" + ROW_COLUMN + ") FROM temp.main." + LoaderText.identifier(name) + " WHERE c"
                    + index + " IS NOT NULL AND TRY_CAST(c" + index + " AS " + type + ") IS NULL";
            try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
                rs.next();
                long bad = rs.getLong(1);
                if (!rs.wasNull()) {
                    throw LoadErrors.failed(String.format(Locale.ROOT,
                            "%s, sheet '%s', row %d: a value in column \"%s\" is not a valid %s.", file, sheet, bad,
                            LoaderText.printable(column, 80), type));
                }
            }
        }

        /** Header texts, or the Excel column letter where there is none; repeats renamed by {@link ColumnNames}. */
        private List<String> columnNames() {
            List<String> bases = new ArrayList<>();
            for (int i = 0; i < profiles.size(); i++) {
                String header = i < headerNames.size() ? headerNames.get(i) : null;
                bases.add(header == null || header.isBlank() ? CellReference.convertNumToColString(i) : header);
            }
            List<String> names = ColumnNames.unique(bases);
            for (int i = 0; i < names.size(); i++) {
                if (!names.get(i).equals(bases.get(i))) {
                    renames.add(new ColumnRename(file, bases.get(i), names.get(i)));
                    progress.accept(String.format(Locale.ROOT,
                            "%s, sheet '%s': column \"%s\" repeats an earlier name; loaded as \"%s\"", file, sheet,
                            bases.get(i), names.get(i)));
                }
            }
            return names;
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
