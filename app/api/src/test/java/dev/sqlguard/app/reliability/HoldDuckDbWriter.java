package dev.sqlguard.app.reliability;

import java.sql.Connection;
import java.sql.DriverManager;
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
}
