package dev.sqlguard.duckdb.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.ports.ingest.LoadRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every failing load must leave the database exactly as it was: the fingerprint (schema and all
 * rows in order of every table and view) is compared before and after, and no staging table may
 * remain. The errors carry a stable code and one clean sentence.
 */
@Timeout(120)
class LoadFailureLeavesDatabaseUnchangedTest {
    private final DuckDbLoader loader = new DuckDbLoader();
    private final List<String> progress = new ArrayList<>();

    @TempDir
    Path dir;

    private Path db;
    private Path good;

    @BeforeEach
    void existingDatabase() throws Exception {
        db = dir.resolve("data.duckdb");
        Databases.execute(db, "CREATE TABLE claims (id BIGINT, amount DOUBLE)",
                "INSERT INTO claims VALUES (1, 10.5), (2, 20.25)",
                "CREATE TABLE other AS SELECT 'kept' AS note",
                "CREATE VIEW v AS SELECT id FROM claims");
        good = Fixtures.text(dir, "good.csv", "id,amount\n3,30\n4,40\n");
    }

    private GuardException failingLoad(String table, boolean replace, Map<String, String> options, Path... inputs)
            throws Exception {
        String before = Databases.fingerprint(db);
        GuardException e = catchThrowableOfType(GuardException.class, () -> loader.load(
                new LoadRequest(db, table, List.of(inputs), replace, options, progress::add)));
        assertThat(e).as("the load must fail").isNotNull();
        assertThat(Databases.fingerprint(db)).as("database changed: %s", Databases.describe(db)).isEqualTo(before);
        assertThat(Databases.tables(db)).containsExactly("claims", "other");
        assertThat(e.getMessage()).doesNotContain("\n", "Exception", "Error:", "\tat ").hasSizeLessThan(400);
        assertThat(e.getStackTrace()).isEmpty();
        return e;
    }

    @ParameterizedTest
    @ValueSource(strings = {"a;b", "x\"y", "", "1abc", "a b", "main.claims", "claims--", "t'", "ünïcode",
            "a234567890123456789012345678901234567890123456789012345678901234"})
    void invalidTableNamesAreRefused(String table) throws Exception {
        GuardException e = failingLoad(table, true, Map.of(), good);

        assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(e.getMessage()).startsWith("Invalid table name");
    }

    @Test
    void aMissingFileAsTheSecondInput() throws Exception {
        GuardException e = failingLoad("claims", false, Map.of(), good, dir.resolve("missing.csv"));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("Input file not found", "missing.csv").endsWith("The database is unchanged.");
    }

    @Test
    void aCorruptParquetAsTheSecondInputOfAReplace() throws Exception {
        Path corrupt = dir.resolve("broken.parquet");
        Files.write(corrupt, "PAR1 this is not parquet at all PAR1".getBytes(java.nio.charset.StandardCharsets.UTF_8));

        GuardException e = failingLoad("claims", true, Map.of(), good, corrupt);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("broken.parquet is not a valid Parquet file.");
        assertThat(progress).contains("good.csv: 2 rows in " + progress.stream()
                .filter(l -> l.startsWith("good.csv: 2 rows in")).findFirst().orElse("?").substring(20));
    }

    @Test
    void aTruncatedParquetAsTheFirstInput() throws Exception {
        Path whole = Fixtures.parquet(dir, "whole.parquet", "SELECT range AS id, range * 1.5 AS amount FROM range(5000)");
        byte[] bytes = Files.readAllBytes(whole);
        Path truncated = dir.resolve("truncated.parquet");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        GuardException e = failingLoad("claims", true, Map.of(), truncated);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("truncated.parquet");
    }

    @Test
    void aCsvWhoseLaterRowsBreakTheInferredType() throws Exception {
        String csv = Fixtures.numbersCsv(25_000) + "25001,not-a-number\n";
        Path late = Fixtures.text(dir, "late.csv", csv);

        GuardException e = failingLoad("claims", false, Map.of(), good, late);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("late.csv, line 25002: the value \"not-a-number\" in column \"amount\" is not a valid BIGINT.");
    }

    @Test
    void aCsvThatBreaksADeclaredType() throws Exception {
        Path csv = Fixtures.text(dir, "typed.csv", "id,amount\n5,1\n6,abc\n");

        GuardException e = failingLoad("claims", false, Map.of("types", "amount:DOUBLE"), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("typed.csv", "line 3", "\"amount\"", "DOUBLE");
    }

    @Test
    void aCsvWithARaggedRow() throws Exception {
        Path csv = Fixtures.text(dir, "ragged.csv", "id,amount\n5,1\n6,2,3\n");

        GuardException e = failingLoad("claims", true, Map.of(), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).isEqualTo("ragged.csv, line 3 has 3 fields where 2 columns were expected."
                + " The database is unchanged.");
    }

    @Test
    void aSemicolonFileReadWithTheCommaDelimiterIsToldWhichOptionToSet() throws Exception {
        Path small = Fixtures.text(dir, "eu.csv", "id;amount\n1;1.234,56\n");
        Path large = Fixtures.text(dir, "eu-large.csv", "id;amount\n" + "1;2\n".repeat(25_000) + "2;1.234,56\n");

        for (Path csv : List.of(small, large)) {
            GuardException e = failingLoad("claims", true, Map.of(), csv);

            assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
            assertThat(e.getMessage()).contains(csv.getFileName() + ", line ")
                    .contains(" has 2 fields where 1 column was expected. The header was read as one column:")
                    .contains("set the delimiter option (delimiter=;).");
        }
    }

    @Test
    void aCsvWithARaggedRowAfterTheSnifferSample() throws Exception {
        Path csv = Fixtures.text(dir, "late-ragged.csv", Fixtures.numbersCsv(25_000) + "25001,1,extra\n");

        GuardException e = failingLoad("claims", false, Map.of(), good, csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("late-ragged.csv, line 25002 has 3 fields where 2 columns were expected.");
    }

    @Test
    void aCsvWithAnUnterminatedQuoteIsRefusedWithItsLine() throws Exception {
        Path csv = Fixtures.text(dir, "unterminated.csv", "id,amount\n5,1\n6,\"2\n7,3\n");

        GuardException e = failingLoad("claims", false, Map.of(), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).isEqualTo("unterminated.csv, line 3: a quoted field is never closed"
                + " (a \" without its closing \"). The database is unchanged.");
    }

    @Test
    void aCsvWithAnUnterminatedQuoteAfterTheSnifferSampleIsRefusedWithItsLine() throws Exception {
        Path csv = Fixtures.text(dir, "late-quote.csv", Fixtures.numbersCsv(25_000) + "25001,\"1\n25002,2\n");

        GuardException e = failingLoad("claims", false, Map.of(), good, csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("late-quote.csv, line 25002: a quoted field is never closed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "\n", "\r\n\r\n", "\uFEFF"})
    void anEmptyCsvIsRefusedInsteadOfMakingAOneColumnTable(String content) throws Exception {
        Path csv = Fixtures.text(dir, "empty.csv", content);

        GuardException e = failingLoad("fresh", true, Map.of(), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).isEqualTo("empty.csv, line 1: the file is empty; a CSV needs a header line with"
                + " the column names. The database is unchanged.");
    }

    @Test
    void anEmptyGzippedTsvWithoutHeaderIsRefusedToo() throws Exception {
        Path tsv = Fixtures.gzip(dir, "empty.tsv.gz", "");

        GuardException e = failingLoad("fresh", true, Map.of("header", "false"), good, tsv);

        assertThat(e.getMessage()).startsWith("empty.tsv.gz, line 1: the file is empty.");
    }

    @Test
    void aSmallCsvWithARaggedRowInsideQuotedLineBreaksNamesTheLineTheRowStartsOn() throws Exception {
        Path csv = Fixtures.text(dir, "multi.csv", "id,amount\n\"5\nfive\",1\n6,2,3\n");

        GuardException e = failingLoad("claims", true, Map.of(), csv);

        assertThat(e.getMessage()).startsWith("multi.csv, line 4 has 3 fields where 2 columns were expected.");
    }

    @Test
    void aHintedNumberThatADecimalCommaCannotReadIsRefusedWithItsLine() throws Exception {
        // with decimal=, DuckDB drops every '.', so 12.5 would load as 125
        Path csv = Fixtures.text(dir, "eu.csv", "id;amount\n5;1.234,50\n6;12.5\n");

        GuardException e = failingLoad("claims", false, Map.of("decimal", ",", "types", "amount:DOUBLE"), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("eu.csv, line 3: a value in column \"amount\" is not a number written"
                + " with decimal=,");
    }

    @Test
    void decimalAndDateFormatOptionsAreCheckedBeforeAnythingIsRead() throws Exception {
        assertThat(failingLoad("t", true, Map.of("decimal", ";"), good).getMessage())
                .startsWith("The decimal option must be . or ,");
        assertThat(failingLoad("t", true, Map.of("decimal", ",", "delimiter", ","), good).getMessage())
                .startsWith("With decimal=, the delimiter cannot be a comma");
        assertThat(failingLoad("t", true, Map.of("dateformat", "dd.mm.yyyy"), good).getMessage())
                .startsWith("The dateformat option must be a strftime format");
        GuardException unknown = failingLoad("t", true, Map.of("dateformat", "%Q.%m"), good);
        assertThat(unknown.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(unknown.getMessage()).startsWith("The dateformat option is not a format DuckDB knows");
        Path parquet = Fixtures.parquet(dir, "p.parquet", "SELECT 1 AS id");
        assertThat(failingLoad("t", true, Map.of("decimal", ","), parquet).getMessage())
                .isEqualTo("The decimal option does not apply to parquet input.");
    }

    @Test
    void aProgressConsumerThatThrowsStillLeavesTheDatabaseUnchanged() throws Exception {
        String before = Databases.fingerprint(db);

        GuardException e = catchThrowableOfType(GuardException.class, () -> loader.load(new LoadRequest(db, "claims",
                List.of(good), true, Map.of(), line -> {
                    if (line.startsWith("good.csv:")) {
                        throw new IllegalStateException("stderr closed");
                    }
                })));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(Databases.fingerprint(db)).isEqualTo(before);
    }

    @Test
    void aDatabasePathThatIsNotADuckDbFileIsLeftAlone() throws Exception {
        Path notDb = Fixtures.text(dir, "notes.duckdb", "just some text, not a database");

        GuardException e = catchThrowableOfType(GuardException.class, () -> loader.load(
                new LoadRequest(notDb, "t", List.of(good), false, Map.of(), progress::add)));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("The database file could not be opened as a DuckDB database.");
        assertThat(notDb).hasContent("just some text, not a database");
    }

    @Test
    void malformedJson() throws Exception {
        Path json = Fixtures.text(dir, "bad.json", "[{\"id\": 1, \"amount\": 2}, {\"id\": ");

        GuardException e = failingLoad("claims", false, Map.of(), good, json);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).startsWith("bad.json is not valid JSON");
    }

    @Test
    void anAppendWhoseColumnNamesDoNotMatch() throws Exception {
        Path csv = Fixtures.text(dir, "renamed.csv", "id,total\n5,1\n");

        GuardException e = failingLoad("claims", false, Map.of(), csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("Cannot append to table \"claims\"", "[id, total]", "[id, amount]");
    }

    @Test
    void anAppendWithAnExtraColumn() throws Exception {
        Path csv = Fixtures.text(dir, "wider.csv", "id,amount,extra\n5,1,x\n");

        assertThat(failingLoad("claims", false, Map.of(), csv).code()).isEqualTo(ErrorCode.LOAD_FAILED);
    }

    @Test
    void anAppendWhoseTypesWouldNotSurvive() throws Exception {
        Path csv = Fixtures.text(dir, "text.csv", "id,amount\nfive,1\n");

        GuardException e = failingLoad("claims", false, Map.of(), good, csv);

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("column \"id\" is VARCHAR in the input but BIGINT in the table");
    }

    @Test
    void anAppendOfDoublesIntoABigintColumnIsNotRounded() throws Exception {
        Databases.execute(db, "DROP VIEW v", "DROP TABLE claims", "CREATE TABLE claims (id BIGINT, amount BIGINT)",
                "INSERT INTO claims VALUES (1, 10)", "CREATE VIEW v AS SELECT id FROM claims");
        Path csv = Fixtures.text(dir, "fractions.csv", "id,amount\n2,1.5\n");

        GuardException e = failingLoad("claims", false, Map.of(), csv);

        assertThat(e.getMessage()).contains("\"amount\" is DECIMAL(18,1) in the input but BIGINT in the table");
    }

    @Test
    void inputsOfOneLoadWithDifferentColumns() throws Exception {
        Path csv = Fixtures.text(dir, "different.csv", "name\nx\n");

        GuardException e = failingLoad("fresh", true, Map.of(), good, csv);

        assertThat(e.getMessage()).contains("different.csv has columns [name]");
    }

    @Test
    void aViewWithTheTableName() throws Exception {
        GuardException e = failingLoad("v", true, Map.of(), good);

        assertThat(e.getMessage()).contains("A view named \"v\" exists");
    }

    @Test
    void badOptionsAreRefusedBeforeAnythingIsRead() throws Exception {
        assertThat(failingLoad("t", true, Map.of("sheet", "1"), good).getMessage())
                .contains("sheet option does not apply");
        assertThat(failingLoad("t", true, Map.of("colour", "red"), good).getMessage())
                .startsWith("Unknown load option 'colour'");
        assertThat(failingLoad("t", true, Map.of("header", "maybe"), good).getMessage()).contains("true or false");
        assertThat(failingLoad("t", true, Map.of("types", "amount:BIGINT); DROP TABLE claims; --"), good).code())
                .isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(failingLoad("t", true, Map.of("types", "amount:NOSUCHTYPE"), good).getMessage())
                .startsWith("Unknown type 'NOSUCHTYPE' for column 'amount'");
        assertThat(failingLoad("t", true, Map.of("types", "NoSuch:BIGINT,amount:DOUBLE,other:DATE"), good).getMessage())
                .isEqualTo("The types option names columns [NoSuch, other], which good.csv does not have; its columns"
                        + " are [id, amount].");
        assertThat(failingLoad("t", true, Map.of("types", "nosuch:BIGINT"), good).getMessage())
                .isEqualTo("The types option names column 'nosuch', which good.csv does not have; its columns are"
                        + " [id, amount].");
        assertThat(failingLoad("t", true, Map.of(), Fixtures.text(dir, "notes.doc", "x")).getMessage())
                .startsWith("Cannot tell the format of notes.doc");
        assertThat(failingLoad("t", true, Map.of("format", "xml"), good).getMessage()).startsWith("Unknown format 'xml'");
    }

    @Test
    void aDatabaseHeldByAReadOnlyConnectionInThisProcessIsNotTouched() throws Exception {
        String before = Databases.fingerprint(db);
        GuardException e;
        try (Connection reader = Databases.openReadOnly(db)) {
            e = catchThrowableOfType(GuardException.class, () -> loader.load(
                    new LoadRequest(db, "claims", List.of(good), true, Map.of(), progress::add)));
        }

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(e.getMessage()).contains("already open in this process");
        assertThat(Databases.fingerprint(db)).isEqualTo(before);
    }

    @Test
    void aFailedLoadIntoANewDatabaseLeavesNoFile() throws Exception {
        Path fresh = dir.resolve("fresh.duckdb");
        Path corrupt = Fixtures.text(dir, "broken.parquet", "nope");

        GuardException e = catchThrowableOfType(GuardException.class, () -> loader.load(
                new LoadRequest(fresh, "t", List.of(good, corrupt), false, Map.of(), progress::add)));

        assertThat(e.code()).isEqualTo(ErrorCode.LOAD_FAILED);
        assertThat(fresh).doesNotExist();
        assertThat(dir.resolve("fresh.duckdb.wal")).doesNotExist();
    }

    @Test
    void badDatabasePathsAreRefused() throws Exception {
        GuardException semicolon = catchThrowableOfType(GuardException.class, () -> loader.load(
                new LoadRequest(dir.resolve("a;b.duckdb"), "t", List.of(good), false, Map.of(), progress::add)));
        GuardException noFolder = catchThrowableOfType(GuardException.class, () -> loader.load(
                new LoadRequest(dir.resolve("nope/x.duckdb"), "t", List.of(good), false, Map.of(), progress::add)));

        assertThat(semicolon.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(noFolder.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
        assertThat(noFolder.getMessage()).startsWith("The folder for the database file does not exist");
        assertThat(dir.resolve("a;b.duckdb")).doesNotExist();
    }
}
