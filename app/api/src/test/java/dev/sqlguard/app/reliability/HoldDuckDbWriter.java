package dev.sqlguard.app.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A separate process that writes to a DuckDB file and holds it (as a running {@code load} does)
 * until its standard input closes. Prints {@code holding} once the file is locked.
 */
public final class HoldDuckDbWriter {
    private HoldDuckDbWriter() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + args[0]);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE OR REPLACE TABLE loading AS SELECT 1 AS n");
            System.out.println("holding");
            System.out.flush();
            while (System.in.read() >= 0) {
                // wait for the parent to close our stdin
            }
        }
    }

    /**
     * Creates {@code database} with table {@code claims (id, region)} holding {@code (1, 'north')},
     * then starts the writer on it in a child JVM of this class path and returns once the writer
     * holds the file (or fails when it says anything else). Closing the process's standard input
     * ends the writer; the caller destroys it in any case.
     */
    public static Process holdNewClaimsFile(Path database) throws IOException, SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE claims AS SELECT 1 AS id, 'north' AS region");
        }
        Process writer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), HoldDuckDbWriter.class.getName(), database.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String first = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8)).readLine();
        if (!"holding".equals(first)) {
            writer.destroyForcibly();
            throw new IllegalStateException("the writer did not hold the file; it said: " + first);
        }
        return writer;
    }
}
