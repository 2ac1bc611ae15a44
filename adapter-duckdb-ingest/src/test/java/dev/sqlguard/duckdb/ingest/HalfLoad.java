package dev.sqlguard.duckdb.ingest;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

/** A load that writes a large table in one transaction, for a test to kill half-way (SIGKILL). */
public final class HalfLoad {
    private HalfLoad() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + args[0]);
             Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("CREATE TABLE sqlguard_stage_killed AS SELECT range AS i, md5(range::VARCHAR) AS t "
                    + "FROM range(1000000000)");
            connection.commit();
        }
    }
}
