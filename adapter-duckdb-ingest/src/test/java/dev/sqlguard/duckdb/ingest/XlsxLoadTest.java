package dev.sqlguard.duckdb.ingest;

import static dev.sqlguard.duckdb.ingest.Databases.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.DateUtil;
import org.apache.poi.ss.usermodel.FormulaError;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.usermodel.Workbook;
import org.apache.poi.xssf.streaming.SXSSFWorkbook;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class XlsxLoadTest extends LoadTestSupport {
    /** Sheet "Claims": one column per inferred type, plus blank, error, duplicate and unnamed cells. */
    private Path claimsWorkbook(boolean date1904) throws Exception {
        XSSFWorkbook wb = new XSSFWorkbook();
        if (date1904) {
            // serials below are computed for the 1904 system, as Mac Excel stores them
            wb.getCTWorkbook().addNewWorkbookPr().setDate1904(true);
        }
        CellStyle money = wb.createCellStyle();
        money.setDataFormat(wb.createDataFormat().getFormat("#,##0.00"));
        CellStyle day = wb.createCellStyle();
        day.setDataFormat(wb.createDataFormat().getFormat("yyyy-mm-dd"));
        CellStyle stamp = wb.createCellStyle();
        stamp.setDataFormat(wb.createDataFormat().getFormat("yyyy-mm-dd hh:mm:ss"));
        Sheet sheet = wb.createSheet("Claims");
        String[] header = {"id", "name", "price", "ratio", "day", "at", "flag", "mixed", "", "Name"};
        Row top = sheet.createRow(0);
        for (int i = 0; i < header.length; i++) {
            if (!header[i].isEmpty()) {
                top.createCell(i).setCellValue(header[i]);
            }
        }
        Object[][] data = {
            {1, "north", 10.5, 0.25, LocalDate.of(2024, 1, 2), LocalDateTime.of(2024, 1, 2, 10, 30), true, 5, "i1", "n1"},
            {2, "south", 20, 1.5, LocalDate.of(2024, 2, 3), LocalDateTime.of(2024, 2, 3, 0, 0, 1), false, "x", null, "n2"},
            {3, null, 3.25, FormulaError.DIV0, LocalDate.of(1999, 12, 31), LocalDateTime.of(2000, 1, 1, 23, 59, 59),
                true, null, "i3", "n3"},
        };
        for (int r = 0; r < data.length; r++) {
            Row row = sheet.createRow(r + 1);
            for (int c = 0; c < data[r].length; c++) {
                Object v = data[r][c];
                if (v instanceof Integer n) {
                    row.createCell(c).setCellValue(n);
                    if (c == 2) {
                        row.getCell(c).setCellStyle(money);
                    }
                } else if (v instanceof Double d) {
                    row.createCell(c).setCellValue(d);
                    if (c == 2) {
                        row.getCell(c).setCellStyle(money);
                    }
                } else if (v instanceof String s) {
                    row.createCell(c).setCellValue(s);
                } else if (v instanceof Boolean b) {
                    row.createCell(c).setCellValue(b);
                } else if (v instanceof LocalDate d) {
                    row.createCell(c).setCellValue(DateUtil.getExcelDate(d.atStartOfDay(), date1904));
                    row.getCell(c).setCellStyle(day);
                } else if (v instanceof LocalDateTime t) {
                    row.createCell(c).setCellValue(DateUtil.getExcelDate(t, date1904));
                    row.getCell(c).setCellStyle(stamp);
                } else if (v instanceof FormulaError e) {
                    row.createCell(c).setCellErrorValue(e.getCode());
                }
            }
        }
        sheet.createRow(10);
        Workbook other = wb;
        Sheet second = other.createSheet("Second");
        second.createRow(0).createCell(0).setCellValue("a");
        second.getRow(0).createCell(1).setCellValue(1);
        second.createRow(1).createCell(0).setCellValue("b");
        second.getRow(1).createCell(1).setCellValue(2);
        return Fixtures.workbook(dir, date1904 ? "claims1904.xlsx" : "claims.xlsx", wb);
    }

    @Test
    void infersTypesFromCellsAndFormats() throws Exception {
        LoadReport report = load("claims", false, Map.of(), claimsWorkbook(false));

        assertThat(report).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("claims", 3, 3,
                List.of("id", "name", "price", "ratio", "day", "at", "flag", "mixed", "I", "Name_2"),
                LoadReport.Mode.CREATED, List.of(new LoadReport.ColumnRename("claims.xlsx", "Name", "Name_2"))));
        assertThat(types("claims")).containsExactly("id BIGINT", "name VARCHAR", "price DECIMAL(18,2)", "ratio DOUBLE",
                "day DATE", "at TIMESTAMP", "flag BOOLEAN", "mixed VARCHAR", "I VARCHAR", "Name_2 VARCHAR");
        assertThat(rows(db(), "SELECT * FROM claims")).containsExactly(
                "1|north|10.50|0.25|2024-01-02|2024-01-02 10:30:00.0|true|5|i1|n1",
                "2|south|20.00|1.5|2024-02-03|2024-02-03 00:00:01.0|false|x|null|n2",
                "3|null|3.25|null|1999-12-31|2000-01-01 23:59:59.0|true|null|i3|n3");
        assertThat(progress).anyMatch(l -> l.contains("1 error cells"))
                .anyMatch(l -> l.startsWith("claims.xlsx: 3 rows in"));
    }

    @Test
    void formulaCellsLoadTheirCachedResultsAndAHeaderOnlySheetGivesAnEmptyTable() throws Exception {
        XSSFWorkbook wb = new XSSFWorkbook();
        Sheet sheet = wb.createSheet("f");
        sheet.createRow(0).createCell(0).setCellValue("a");
        sheet.getRow(0).createCell(1).setCellValue("twice");
        sheet.getRow(0).createCell(2).setCellValue("label");
        for (int r = 1; r <= 3; r++) {
            Row row = sheet.createRow(r);
            row.createCell(0).setCellValue(r);
            row.createCell(1).setCellFormula("A" + (r + 1) + "*2");
            row.createCell(2).setCellFormula("\"n\"&A" + (r + 1));
        }
        wb.getCreationHelper().createFormulaEvaluator().evaluateAll();
        Sheet empty = wb.createSheet("empty");
        empty.createRow(0).createCell(0).setCellValue("only");
        empty.getRow(0).createCell(1).setCellValue("headers");
        Path file = Fixtures.workbook(dir, "formulas.xlsx", wb);

        load("f", false, Map.of(), file);
        LoadReport headersOnly = load("e", false, Map.of("sheet", "empty"), file);

        assertThat(types("f")).containsExactly("a BIGINT", "twice BIGINT", "label VARCHAR");
        assertThat(rows(db(), "SELECT * FROM f")).containsExactly("1|2|n1", "2|4|n2", "3|6|n3");
        assertThat(headersOnly).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("e", 0, 0, List.of("only", "headers"), LoadReport.Mode.CREATED, List.of()));
    }

    @Test
    void readsDatesOfA1904Workbook() throws Exception {
        load("claims", false, Map.of(), claimsWorkbook(true));

        assertThat(rows(db(), "SELECT day, CAST(\"at\" AS VARCHAR) FROM claims ORDER BY id"))
                .containsExactly("2024-01-02|2024-01-02 10:30:00", "2024-02-03|2024-02-03 00:00:01",
                        "1999-12-31|2000-01-01 23:59:59");
    }

    @Test
    void sheetOptionPicksBySheetNameOrPositionAndHeaderFalseUsesColumnLetters() throws Exception {
        Path workbook = claimsWorkbook(false);

        LoadReport byName = load("s", true, Map.of("sheet", "second", "header", "false"), workbook);
        LoadReport byPosition = load("s", false, Map.of("sheet", "2", "header", "false"), workbook);

        assertThat(byName.columns()).containsExactly("A", "B");
        assertThat(byPosition.rowsInTable()).isEqualTo(4);
        assertThat(types("s")).containsExactly("A VARCHAR", "B BIGINT");
    }

    @Test
    void typeHintsOverrideInference() throws Exception {
        load("claims", false, Map.of("types", "id:VARCHAR,price:DOUBLE,day:TIMESTAMP"), claimsWorkbook(false));

        assertThat(types("claims")).startsWith("id VARCHAR", "name VARCHAR", "price DOUBLE", "ratio DOUBLE",
                "day TIMESTAMP");
        assertThat(rows(db(), "SELECT id, price FROM claims")).containsExactly("1|10.5", "2|20.0", "3|3.25");
    }

    @Test
    void aHintTheValuesBreakNamesTheSheetRowAndLeavesTheDatabaseUnchanged() throws Exception {
        Databases.execute(db(), "CREATE TABLE claims AS SELECT 1 AS kept");
        String before = Databases.fingerprint(db());

        GuardException e = catchThrowableOfType(GuardException.class,
                () -> load("claims", true, Map.of("types", "mixed:INTEGER"), claimsWorkbook(false)));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).isEqualTo("claims.xlsx, sheet 'Claims', row 3: a value in column \"mixed\" is not"
                + " a valid INTEGER. The database is unchanged.");
        assertThat(Databases.fingerprint(db())).isEqualTo(before);
    }

    @Test
    void anUnknownSheetACorruptWorkbookAndAnOldXlsAreRefused() throws Exception {
        Databases.execute(db(), "CREATE TABLE claims AS SELECT 1 AS kept");
        String before = Databases.fingerprint(db());
        Path corrupt = dir.resolve("corrupt.xlsx");
        Files.write(corrupt, "PK\u0003\u0004 not really a zip".getBytes(StandardCharsets.ISO_8859_1));
        Path xls = dir.resolve("old.xlsx");
        try (org.apache.poi.hssf.usermodel.HSSFWorkbook old = new org.apache.poi.hssf.usermodel.HSSFWorkbook();
             var out = Files.newOutputStream(xls)) {
            old.createSheet("x").createRow(0).createCell(0).setCellValue("a");
            old.write(out);
        }

        GuardException noSheet = catchThrowableOfType(GuardException.class,
                () -> load("claims", true, Map.of("sheet", "Nope"), claimsWorkbook(false)));
        GuardException broken = catchThrowableOfType(GuardException.class, () -> load("claims", true, Map.of(), corrupt));
        GuardException binary = catchThrowableOfType(GuardException.class, () -> load("claims", true, Map.of(), xls));

        assertThat(noSheet.getMessage()).startsWith("claims.xlsx has no sheet 'Nope'; its sheets are [Claims, Second].");
        assertThat(broken.getMessage()).startsWith("corrupt.xlsx is not a readable .xlsx workbook.");
        assertThat(binary.getMessage()).startsWith("old.xlsx is not a readable .xlsx workbook.");
        assertThat(List.of(noSheet.code(), broken.code(), binary.code())).containsOnly(ErrorCode.LOAD_FAILED);
        assertThat(Databases.fingerprint(db())).isEqualTo(before);
    }

    @Test
    void aStreamedWorkbookWithInlineStringsAndALaterWiderRowLoadsWithProgress() throws Exception {
        int rows = 100_001;
        SXSSFWorkbook wb = new SXSSFWorkbook(200);
        Sheet sheet = wb.createSheet("big");
        Row header = sheet.createRow(0);
        header.createCell(0).setCellValue("n");
        header.createCell(1).setCellValue("label");
        for (int r = 1; r <= rows; r++) {
            Row row = sheet.createRow(r);
            row.createCell(0).setCellValue(r);
            row.createCell(1).setCellValue("r" + r);
            if (r == rows) {
                row.createCell(3).setCellValue(true);
            }
        }
        Path file = Fixtures.workbook(dir, "big.xlsx", wb);
        Path csv = Fixtures.text(dir, "more.csv", "n,label,C,D\n0,zero,,false\n");

        LoadReport report = load("big", false, Map.of(), file, csv);

        assertThat(report).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("big", rows + 1, rows + 1, List.of("n", "label", "C", "D"), LoadReport.Mode.CREATED,
                List.of()));
        assertThat(types("big")).containsExactly("n BIGINT", "label VARCHAR", "C VARCHAR", "D BOOLEAN");
        assertThat(rows(db(), "SELECT count(*), sum(n), count(D), max(label) FILTER (WHERE n = 77) FROM big"))
                .containsExactly(rows + 1 + "|" + (long) rows * (rows + 1) / 2 + "|2|r77");
        assertThat(progress).contains("big.xlsx, sheet 'big': 100,000 rows read");
    }
}
