package dev.sqlguard.duckdb.ingest;

import static dev.sqlguard.duckdb.ingest.Databases.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadReport.ColumnRename;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What the CSV path does with the inputs a new user actually has: repeated headers, money, European numbers. */
@Timeout(120)
class CsvLoadTest extends LoadTestSupport {
    @Test
    void repeatedHeadersAreRenamedLikeASheetsAndReported() throws Exception {
        Path csv = Fixtures.text(dir, "dup.csv", "a,A,b,a\n1,2,3,4\n");
        XSSFWorkbook wb = new XSSFWorkbook();
        var header = wb.createSheet("s").createRow(0);
        String[] names = {"a", "A", "b", "a"};
        for (int i = 0; i < names.length; i++) {
            header.createCell(i).setCellValue(names[i]);
        }
        var row = wb.getSheet("s").createRow(1);
        for (int i = 0; i < names.length; i++) {
            row.createCell(i).setCellValue(i + 1);
        }
        Path xlsx = Fixtures.workbook(dir, "dup.xlsx", wb);

        LoadReport fromCsv = load("c", false, Map.of(), csv);
        LoadReport fromSheet = load("x", false, Map.of(), xlsx);

        assertThat(fromCsv.columns()).containsExactly("a", "A_2", "b", "a_3");
        assertThat(fromSheet.columns()).isEqualTo(fromCsv.columns());
        assertThat(fromCsv.renames()).containsExactly(new ColumnRename("dup.csv", "A", "A_2"),
                new ColumnRename("dup.csv", "a", "a_3"));
        assertThat(fromSheet.renames()).containsExactly(new ColumnRename("dup.xlsx", "A", "A_2"),
                new ColumnRename("dup.xlsx", "a", "a_3"));
        assertThat(rows(db(), "SELECT * FROM c")).containsExactly("1|2|3|4");
        assertThat(progress).contains("dup.csv: column \"A\" repeats an earlier name; loaded as \"A_2\"",
                "dup.xlsx, sheet 's': column \"a\" repeats an earlier name; loaded as \"a_3\"");
    }

    @Test
    void aQuotedEmptyFieldIsAnEmptyStringAndAnUnquotedOneIsNull() throws Exception {
        Path csv = Fixtures.text(dir, "q.csv", "id,note\n1,\"\"\n2,\n3,\"x\"\n");

        load("t", false, Map.of(), csv);

        assertThat(rows(db(), "SELECT id, note IS NULL, length(note) FROM t ORDER BY id"))
                .containsExactly("1|false|0", "2|true|null", "3|false|1");
    }

    @Test
    void plainFixedPointColumnsLoadAsDecimalSoAveragesHaveNoFloatNoise() throws Exception {
        Path csv = Fixtures.text(dir, "claims.csv",
                "id,region,amount,rate,ratio\n1,north,0.10,1.5,0.123456\n2,north,0.20,2,1e3\n3,south,-7,,0.5\n");

        load("claims", false, Map.of(), csv);

        assertThat(Databases.columnTypes(db(), "claims")).containsExactly("id BIGINT", "region VARCHAR",
                "amount DECIMAL(18,2)", "rate DECIMAL(18,1)", "ratio DOUBLE");
        assertThat(rows(db(), "SELECT avg(amount)::VARCHAR FROM claims WHERE region = 'north'")).containsExactly("0.15");
        assertThat(rows(db(), "SELECT sum(amount)::VARCHAR FROM claims")).containsExactly("-6.70");
        assertThat(progress).contains("claims.csv: column \"amount\" holds fixed-point numbers: DECIMAL(18,2)");
    }

    @Test
    void moreThanFourDecimalsOrFifteenDigitsStayDouble() throws Exception {
        Path csv = Fixtures.text(dir, "m.csv", "a,b,c\n0.12345,123456789012345.5,1.25\n1,2.5,1.5\n");

        load("m", false, Map.of("types", "c:DOUBLE"), csv);

        assertThat(Databases.columnTypes(db(), "m")).containsExactly("a DOUBLE", "b DOUBLE", "c DOUBLE");
    }

    @Test
    void aFileOfIntegersAppendsToADecimalColumnAndAFileOfDecimalsWidensEarlierIntegers() throws Exception {
        Path money = Fixtures.text(dir, "money.csv", "id,amount\n1,10.50\n");
        Path whole = Fixtures.text(dir, "whole.csv", "id,amount\n2,3\n");

        load("t", false, Map.of(), money);
        LoadReport appended = load("t", false, Map.of(), whole);
        load("u", false, Map.of(), whole, money);

        assertThat(appended.mode()).isEqualTo(LoadReport.Mode.APPENDED);
        assertThat(rows(db(), "SELECT amount FROM t ORDER BY id")).containsExactly("10.50", "3.00");
        assertThat(Databases.columnTypes(db(), "u")).containsExactly("id BIGINT", "amount DECIMAL(18,2)");
    }

    @Test
    void anIntegerTooLargeForTheDecimalColumnFailsInsteadOfBeingRounded() throws Exception {
        Path money = Fixtures.text(dir, "money.csv", "id,amount\n1,10.50\n");
        Path huge = Fixtures.text(dir, "huge.csv", "id,amount\n2,100000000000000000\n");
        load("t", false, Map.of(), money);

        GuardException e = catchThrowableOfType(GuardException.class, () -> load("t", false, Map.of(), huge));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(rows(db(), "SELECT count(*) FROM t")).containsExactly("1");
    }

    @Test
    void aDecimalCommaAndADateFormatLoadEuropeanFiles() throws Exception {
        Path csv = Fixtures.text(dir, "eu.csv",
                "id;amount;big;day;code\n1;1.234,56;2.000;31.01.2024;1.5\n2;12,5;1;01.02.2024;x\n3;;;;\n");

        load("eu", false, Map.of("decimal", ",", "dateformat", "%d.%m.%Y"), csv);

        assertThat(Databases.columnTypes(db(), "eu")).containsExactly("id BIGINT", "amount DECIMAL(18,2)",
                "big BIGINT", "day DATE", "code VARCHAR");
        assertThat(rows(db(), "SELECT * FROM eu ORDER BY id")).containsExactly(
                "1|1234.56|2000|2024-01-31|1.5", "2|12.50|1|2024-02-01|x", "3|null|null|null|null");
    }

    @Test
    void aNumberColumnWhoseDotsDoNotGroupThousandsStaysText() throws Exception {
        // DuckDB would read 12.5 as 125 with a decimal comma; the loader keeps the text instead
        Path csv = Fixtures.text(dir, "eu.csv", "id;version\n1;12.5\n2;1.234\n");

        load("eu", false, Map.of("decimal", ","), csv);

        assertThat(rows(db(), "SELECT version FROM eu ORDER BY id")).containsExactly("12.5", "1.234");
        assertThat(progress).contains("eu.csv: column \"version\" loaded as VARCHAR: not all its values are numbers"
                + " written with decimal=,");
    }

    @Test
    void aDateFormatReadsDayFirstDatesAndATypeHintUsesIt() throws Exception {
        Path csv = Fixtures.text(dir, "d.csv", "id,day\n1,03/04/2024\n2,12/11/2023\n");

        load("d", false, Map.of("dateformat", "%d/%m/%Y", "types", "day:DATE"), csv);

        assertThat(rows(db(), "SELECT day FROM d ORDER BY id")).containsExactly("2024-04-03", "2023-11-12");
    }

    @Test
    void theSummarySaysWhetherTheLoadCreatedAppendedOrReplaced() throws Exception {
        Path csv = Fixtures.text(dir, "a.csv", "id\n1\n2\n");

        LoadReport created = load("t", false, Map.of(), csv);
        LoadReport appended = load("t", false, Map.of(), csv);
        LoadReport replaced = load("t", true, Map.of(), csv);

        assertThat(List.of(created.mode(), appended.mode(), replaced.mode()))
                .containsExactly(LoadReport.Mode.CREATED, LoadReport.Mode.APPENDED, LoadReport.Mode.REPLACED);
        assertThat(appended.rowsInTable()).isEqualTo(4);
        assertThat(progress).contains("Committed: created table \"t\" with 2 rows",
                "Committed: appended 2 rows to table \"t\"; it now has 4 rows (append is the default;"
                        + " --replace swaps the table)",
                "Committed: replaced table \"t\"; it now has 2 rows (replace)");
    }

    @Test
    void aLongerCsvReportsItsProgressBetweenTheStartAndEndLines() throws Exception {
        Path csv = Fixtures.text(dir, "long.csv", Fixtures.numbersCsv(200_000));

        load("t", false, Map.of(), csv);

        List<String> lines = List.copyOf(progress);
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith("Reading long.csv (CSV, ")).findFirst()
                .orElseThrow());
        int end = lines.indexOf(lines.stream().filter(l -> l.startsWith("long.csv: 200,000 rows in ")).findFirst()
                .orElseThrow());
        assertThat(start).isLessThan(end);
        // percentage lines depend on the machine's speed: each one that appears is in order and in range
        Pattern percent = Pattern.compile("long\\.csv: (\\d{1,2})% (read|checked for number formats)");
        int last = 0;
        for (String line : lines.subList(start + 1, end)) {
            Matcher m = percent.matcher(line);
            if (m.matches() && m.group(2).equals("read")) {
                int value = Integer.parseInt(m.group(1));
                assertThat(value).isGreaterThan(last).isLessThan(100);
                last = value;
            } else {
                assertThat(line).matches(percent);
            }
        }
    }
}
