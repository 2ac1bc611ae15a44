package dev.sqlguard.duckdb.ingest;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.zip.GZIPOutputStream;
import org.apache.poi.ss.usermodel.Workbook;

/** Writes the input files the tests load, each generated here rather than checked in. */
final class Fixtures {
    private Fixtures() {
    }

    static Path text(Path folder, String name, String content) throws IOException {
        Path file = folder.resolve(name);
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }

    static Path gzip(Path folder, String name, String content) throws IOException {
        Path file = folder.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(content.getBytes(StandardCharsets.UTF_8));
        }
        return file;
    }

    /** A Parquet file written by DuckDB's COPY from a scratch in-memory database. */
    static Path parquet(Path folder, String name, String select) throws SQLException {
        Path file = folder.resolve(name);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement s = c.createStatement()) {
            s.execute("COPY (" + select + ") TO '" + file.toString().replace("'", "''") + "' (FORMAT parquet)");
        }
        return file;
    }

    static Path workbook(Path folder, String name, Workbook workbook) throws IOException {
        Path file = folder.resolve(name);
        try (workbook; OutputStream out = Files.newOutputStream(file)) {
            workbook.write(out);
        }
        return file;
    }

    /** A CSV with an integer id and amount column, {@code rows} rows long. */
    static String numbersCsv(int rows) {
        StringBuilder csv = new StringBuilder("id,amount\n");
        for (int i = 1; i <= rows; i++) {
            csv.append(i).append(',').append(i * 10).append('\n');
        }
        return csv.toString();
    }
}
