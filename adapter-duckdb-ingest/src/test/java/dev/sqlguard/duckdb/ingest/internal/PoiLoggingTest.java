package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sqlguard.duckdb.ingest.DuckDbLoader;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** POI's Log4j logging goes to java.util.logging instead of a "no logging provider" line on stderr. */
@Timeout(120)
class PoiLoggingTest {
    @TempDir
    Path dir;

    /** Loads the workbook in args[0] into the database args[1]; run in a fresh JVM by the test below. */
    public static void main(String[] args) {
        LoadReport report = new DuckDbLoader().load(new LoadRequest(Path.of(args[1]), "t", List.of(Path.of(args[0])),
                true, Map.of(), line -> { }));
        System.out.println("loaded " + report.rowsLoaded());
    }

    @Test
    void anXlsxLoadInAFreshJvmPrintsNothingFromLog4j() throws Exception {
        Path xlsx = dir.resolve("w.xlsx");
        try (XSSFWorkbook wb = new XSSFWorkbook(); OutputStream out = Files.newOutputStream(xlsx)) {
            var sheet = wb.createSheet("s");
            sheet.createRow(0).createCell(0).setCellValue("n");
            sheet.createRow(1).createCell(0).setCellValue(1);
            sheet.createRow(2).createCell(0).setCellValue(2);
            wb.write(out);
        }
        Path stdout = dir.resolve("out.txt");
        Path stderr = dir.resolve("err.txt");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), PoiLoggingTest.class.getName(), xlsx.toString(),
                dir.resolve("w.duckdb").toString())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();

        assertThat(child.waitFor(100, TimeUnit.SECONDS)).as("the child JVM finished").isTrue();
        String err = read(stderr);
        assertThat(child.exitValue()).as(err).isZero();
        // Log4j's status logger prints on stdout or stderr, depending on the stream it finds: neither may get it
        assertThat(read(stdout)).isEqualTo("loaded 2" + System.lineSeparator());
        assertThat(err).doesNotContain("Log4j", "logging provider", "StatusLogger");
    }

    @Test
    void poiLoggersAreJavaUtilLoggingLoggersOfTheSameName() {
        Logger logger = LogManager.getLogger("org.apache.poi.sqlguard.test");
        java.util.logging.Logger jul = java.util.logging.Logger.getLogger("org.apache.poi.sqlguard.test");
        List<LogRecord> records = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jul.addHandler(handler);
        jul.setUseParentHandlers(false);
        try {
            logger.warn("cell {} is odd", "B2");
            logger.debug("not logged at JUL's default level");
        } finally {
            jul.removeHandler(handler);
            jul.setUseParentHandlers(true);
        }

        assertThat(logger).isInstanceOf(PoiLogging.JulLogger.class);
        assertThat(records).singleElement().satisfies(r -> {
            assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
            assertThat(r.getMessage()).isEqualTo("cell B2 is odd");
            assertThat(r.getLoggerName()).isEqualTo("org.apache.poi.sqlguard.test");
        });
    }

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
