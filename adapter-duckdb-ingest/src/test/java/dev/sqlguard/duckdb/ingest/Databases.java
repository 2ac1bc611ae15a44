package dev.sqlguard.duckdb.ingest;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/** Test helpers that read a database file through a read-only connection and close it again. */
final class Databases {
    private Databases() {
    }

    /** Opens the file read-only, which fails while a read-write connection is open in this JVM. */
    static Connection openReadOnly(Path database) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("duckdb.read_only", "true");
        return DriverManager.getConnection("jdbc:duckdb:" + database, properties);
    }

    /** A read-write connection for setting up a database before a load. */
    static Connection openReadWrite(Path database) throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:" + database);
    }

    static void execute(Path database, String... statements) throws SQLException {
        try (Connection c = openReadWrite(database); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /**
     * SHA-256 over every schema object: table and view names, each table's columns and types, and
     * every row in scan order. Two equal fingerprints mean the database holds the same data.
     */
    static String fingerprint(Path database) throws SQLException {
        return sha256(String.join("\n", describe(database)));
    }

    /** The lines the fingerprint hashes, readable in an assertion failure. */
    static List<String> describe(Path database) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection c = openReadOnly(database)) {
            lines.addAll(query(c, "SELECT 'view ' || schema_name || '.' || view_name || ' ' || sql FROM duckdb_views()"
                    + " WHERE NOT internal ORDER BY ALL"));
            List<String> tables = query(c, "SELECT schema_name || '.' || table_name FROM duckdb_tables()"
                    + " WHERE database_name = current_database() ORDER BY ALL");
            for (String table : tables) {
                lines.add("table " + table);
                String[] parts = table.split("\\.", 2);
                lines.addAll(query(c, "SELECT column_name || ' ' || data_type || ' ' || is_nullable FROM duckdb_columns()"
                        + " WHERE database_name = current_database() AND schema_name = '" + parts[0]
                        + "' AND table_name = '" + parts[1] + "' ORDER BY column_index"));
                lines.addAll(query(c, "SELECT * FROM \"" + parts[0] + "\".\"" + parts[1] + "\""));
            }
        }
        return lines;
    }

    static List<String> tables(Path database) throws SQLException {
        try (Connection c = openReadOnly(database)) {
            return query(c, "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() ORDER BY ALL");
        }
    }

    /** Rows as "a|b|c" strings, NULL as the word null. */
    /** "column TYPE" for each column of {@code table}, in column order. */
    static List<String> columnTypes(Path database, String table) throws SQLException {
        return rows(database, "SELECT column_name || ' ' || data_type FROM duckdb_columns() WHERE table_name = '"
                + table + "' ORDER BY column_index");
    }

    static List<String> rows(Path database, String sql) throws SQLException {
        try (Connection c = openReadOnly(database)) {
            return query(c, sql);
        }
    }

    static List<String> query(Connection c, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.append(i == 1 ? "" : "|").append(rs.getString(i));
                }
                rows.add(row.toString());
            }
        }
        return rows;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
