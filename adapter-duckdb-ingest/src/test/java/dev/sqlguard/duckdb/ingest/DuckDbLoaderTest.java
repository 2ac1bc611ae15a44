package dev.sqlguard.duckdb.ingest;

import static dev.sqlguard.duckdb.ingest.Databases.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class DuckDbLoaderTest extends LoadTestSupport {
    @Test
    void isFoundByServiceLoaderUnderItsName() {
        assertThat(ServiceLoader.load(DataLoader.class).stream().map(ServiceLoader.Provider::get)
                .filter(l -> l.name().equals("duckdb")).toList())
                .singleElement().isInstanceOf(DuckDbLoader.class);
    }

    @Test
    void loadsCsvWithInferredTypesAndReportsRows() throws Exception {
        Path csv = Fixtures.text(dir, "claims.csv",
                "id,region,amount,day\n1,north,10.5,2024-01-02\n2,south,20,2024-02-03\n3,north,,2024-03-04\n");

        LoadReport report = load("claims", false, Map.of(), csv);

        assertThat(report).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("claims", 3, 3, List.of("id", "region", "amount", "day"),
                LoadReport.Mode.CREATED, List.of()));
        assertThat(report.types()).extracting(LoadReport.ColumnType::reason).containsExactly("inferred by DuckDB from the values",
                "text", "fixed-point numbers with at most 1 decimal", "inferred by DuckDB from the values");
        assertThat(types("claims")).containsExactly("id BIGINT", "region VARCHAR", "amount DECIMAL(18,1)", "day DATE");
        assertThat(rows(db(), "SELECT * FROM claims ORDER BY id"))
                .containsExactly("1|north|10.5|2024-01-02", "2|south|20.0|2024-02-03", "3|north|null|2024-03-04");
        assertThat(progress).anyMatch(l -> l.startsWith("Reading claims.csv (CSV"))
                .anyMatch(l -> l.startsWith("claims.csv: 3 rows in"))
                .contains("Committed: created table \"claims\" with 3 rows");
    }

    @Test
    void loadsTsvAndAGzippedCsv() throws Exception {
        Path tsv = Fixtures.text(dir, "a.tsv", "id\tname\n1\tx, with comma\n");
        Path gz = Fixtures.gzip(dir, "b.csv.gz", "id,name\n2,y\n");

        LoadReport report = load("t", false, Map.of(), tsv, gz);

        assertThat(report.rowsLoaded()).isEqualTo(2);
        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("1|x, with comma", "2|y");
    }

    @Test
    void loadsParquetKeepingItsTypes() throws Exception {
        Path parquet = Fixtures.parquet(dir, "p.parquet", "SELECT i::INTEGER AS id, (i * 1.25)::DECIMAL(10,2) AS price,"
                + " TIMESTAMP '2024-01-01 00:00:00' + INTERVAL (i) HOUR AS at FROM range(1, 1001) t(i)");

        LoadReport report = load("p", false, Map.of(), parquet);

        assertThat(report.rowsLoaded()).isEqualTo(1000);
        assertThat(types("p")).containsExactly("id INTEGER", "price DECIMAL(10,2)", "at TIMESTAMP");
        assertThat(rows(db(), "SELECT id, price, CAST(\"at\" AS VARCHAR) FROM p WHERE id = 2")).containsExactly("2|2.50|2024-01-01 02:00:00");
    }

    @Test
    void loadsJsonArraysNdjsonAndJsonl() throws Exception {
        Path json = Fixtures.text(dir, "a.json", "[{\"id\": 1, \"tag\": \"x\"}, {\"id\": 2, \"tag\": \"y\"}]");
        Path ndjson = Fixtures.text(dir, "b.ndjson", "{\"id\": 3, \"tag\": \"z\"}\n{\"id\": 4, \"tag\": null}\n");
        Path jsonl = Fixtures.text(dir, "c.jsonl", "{\"id\": 5, \"tag\": \"w\"}\n");

        LoadReport report = load("j", false, Map.of(), json, ndjson, jsonl);

        assertThat(report.rowsLoaded()).isEqualTo(5);
        assertThat(types("j")).containsExactly("id BIGINT", "tag VARCHAR");
        assertThat(rows(db(), "SELECT * FROM j ORDER BY id")).containsExactly("1|x", "2|y", "3|z", "4|null", "5|w");
    }

    @Test
    void formatOptionOverridesTheExtension() throws Exception {
        Path data = Fixtures.text(dir, "export.txt", "{\"id\": 1}\n{\"id\": 2}\n");

        assertThat(load("x", false, Map.of("format", "jsonl"), data).rowsLoaded()).isEqualTo(2);
    }

    @Test
    void appendAddsRowsAndReplaceSwapsTheTable() throws Exception {
        Path first = Fixtures.text(dir, "first.csv", "id,amount\n1,1.5\n2,2.5\n");
        Path second = Fixtures.text(dir, "second.csv", "amount,id\n3,3\n");

        load("t", false, Map.of(), first);
        LoadReport appended = load("t", false, Map.of(), second);

        assertThat(appended).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("t", 1, 3, List.of("id", "amount"), LoadReport.Mode.APPENDED,
                List.of()));
        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("1|1.5", "2|2.5", "3|3.0");

        Path other = Fixtures.text(dir, "other.csv", "name\nonly\n");
        LoadReport replaced = load("t", true, Map.of(), other);

        assertThat(replaced).usingRecursiveComparison().ignoringFields("types").isEqualTo(new LoadReport("t", 1, 1, List.of("name"), LoadReport.Mode.REPLACED, List.of()));
        assertThat(Databases.tables(db())).containsExactly("t");
    }

    @Test
    void replaceKeepsViewsOverTheTableWorking() throws Exception {
        Databases.execute(db(), "CREATE TABLE t (id BIGINT)", "INSERT INTO t VALUES (1)",
                "CREATE VIEW big_ids AS SELECT id FROM t WHERE id > 5");
        Path csv = Fixtures.text(dir, "new.csv", "id\n7\n3\n9\n");

        load("t", true, Map.of(), csv);

        assertThat(rows(db(), "SELECT * FROM big_ids ORDER BY id")).containsExactly("7", "9");
    }

    @Test
    void concurrentLoadsIntoOneFileTakeTurns() throws Exception {
        Path csv = Fixtures.text(dir, "a.csv", Fixtures.numbersCsv(2_000));
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 4; i++) {
            Thread thread = new Thread(() -> {
                try {
                    loader.load(new LoadRequest(db(), "t", List.of(csv), false, Map.of(), line -> { }));
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(failures).isEmpty();
        assertThat(rows(db(), "SELECT count(*) FROM t")).containsExactly("8000");
    }

    @Test
    void severalInputsWidenTheStagingColumnWhenALaterFileNeedsIt() throws Exception {
        Path integers = Fixtures.text(dir, "a.csv", "id,amount\n1,10\n");
        Path decimals = Fixtures.text(dir, "b.csv", "id,amount\n2,10.25\n");
        Path parquet = Fixtures.parquet(dir, "c.parquet", "SELECT 3::BIGINT AS id, 7.5::DOUBLE AS amount");

        LoadReport report = load("t", true, Map.of(), integers, decimals, parquet);

        assertThat(report.rowsLoaded()).isEqualTo(3);
        assertThat(types("t")).containsExactly("id BIGINT", "amount DOUBLE");
        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("1|10.0", "2|10.25", "3|7.5");
    }

    @Test
    void headerFalseNamesColumnsAndTypeHintsApply() throws Exception {
        Path csv = Fixtures.text(dir, "raw.csv", "00123;5\n00456;6\n");

        load("z", false, Map.of("header", "false", "delimiter", ";", "types", "column0:VARCHAR,column1:DECIMAL(10,2)"),
                csv);

        assertThat(types("z")).containsExactly("column0 VARCHAR", "column1 DECIMAL(10,2)");
        assertThat(rows(db(), "SELECT * FROM z ORDER BY 1")).containsExactly("00123|5.00", "00456|6.00");
    }

    @Test
    void typeHintsCastParquetAndJsonColumns() throws Exception {
        Path parquet = Fixtures.parquet(dir, "p.parquet", "SELECT 1 AS id, '2024-05-06' AS day");
        Path json = Fixtures.text(dir, "j.ndjson", "{\"id\": 2, \"day\": \"2024-07-08\"}\n");

        load("t", false, Map.of("types", "day:DATE, id:SMALLINT"), parquet, json);

        assertThat(types("t")).containsExactly("id SMALLINT", "day DATE");
        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("1|2024-05-06", "2|2024-07-08");
    }

    @Test
    void appendingNarrowerTypesIntoWiderColumnsWorks() throws Exception {
        Databases.execute(db(), "CREATE TABLE t (id BIGINT, amount DOUBLE, note VARCHAR)",
                "INSERT INTO t VALUES (1, 1.5, 'a')");
        Path csv = Fixtures.text(dir, "more.csv", "id,amount,note\n2,3,\n");

        LoadReport report = load("t", false, Map.of(), csv);

        assertThat(report.rowsInTable()).isEqualTo(2);
        assertThat(types("t")).containsExactly("id BIGINT", "amount DOUBLE", "note VARCHAR");
        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("1|1.5|a", "2|3.0|null");
    }

    @Test
    void aPathWithASingleQuoteLoadsThatFileAndNothingElse() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("it's here"));
        Path csv = Fixtures.text(folder, "o'brien'); DROP TABLE t; --.csv", "id\n42\n");
        Databases.execute(db(), "CREATE TABLE keep AS SELECT 1 AS x");

        load("t", false, Map.of(), csv);

        assertThat(rows(db(), "SELECT * FROM t")).containsExactly("42");
        assertThat(Databases.tables(db())).containsExactly("keep", "t");
    }

    @Test
    void aPathWithGlobCharactersLoadsExactlyThatFile() throws Exception {
        Path bracketed = Fixtures.text(dir, "report[1].csv", "id,name\n7,right\n");
        Fixtures.text(dir, "report1.csv", "id,name\n8,wrong\n");
        Path starred = Fixtures.text(dir, "a*b?.csv", "id,name\n9,star\n");
        Fixtures.text(dir, "aXbY.csv", "id,name\n10,wrong\n");

        load("t", false, Map.of(), bracketed, starred);

        assertThat(rows(db(), "SELECT * FROM t ORDER BY id")).containsExactly("7|right", "9|star");
    }

    @Test
    void aDatabaseFileIsCreatedAndTheReadWriteConnectionIsClosedAfterwards() throws Exception {
        Path csv = Fixtures.text(dir, "a.csv", "id\n1\n");
        assertThat(db()).doesNotExist();

        load("t", false, Map.of(), csv);

        // DuckDB refuses a read-only open of a file that a read-write connection in this JVM still holds
        assertThatNoException().isThrownBy(() -> {
            try (Connection c = Databases.openReadOnly(db())) {
                assertThat(Databases.query(c, "SELECT count(*) FROM t")).containsExactly("1");
            }
        });
        load("t", false, Map.of(), csv);
        assertThat(rows(db(), "SELECT count(*) FROM t")).containsExactly("2");
    }
}
