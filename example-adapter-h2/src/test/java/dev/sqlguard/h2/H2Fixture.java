package dev.sqlguard.h2;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.EngineWrite;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/**
 * A private H2 database file holding {@link ContractDataset}, made by its owner {@code sa}, which is
 * also the account the engine uses: every refusal must come from sqlguard or from H2's read-only
 * open, never from grants.
 */
final class H2Fixture extends PrivateDatabaseFixture {
    private final Path folder;
    private final Path database;
    private final EngineFactory factory;

    H2Fixture(Path folder, EngineFactory factory) throws SQLException {
        this.folder = folder;
        this.database = folder.resolve("contract");
        this.factory = factory;
        try (Connection c = connect(""); Statement s = c.createStatement()) {
            for (String sql : ContractDataset.ddl()) {
                s.execute(sql);
            }
            for (String sql : ContractDataset.inserts()) {
                s.execute(sql);
            }
        }
    }

    /** The fixture's own connection to the file: H2 shares the open database with the engine's, read-only while an engine is open. */
    private Connection connect(String options) throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", "sa");
        login.setProperty("password", "");
        return new org.h2.Driver().connect("jdbc:h2:file:" + database + options, login);
    }

    @Override
    public EngineFactory factory() {
        return factory;
    }

    @Override
    protected Map<String, String> properties() {
        return Map.of(H2EngineFactory.DATABASE, database.toString());
    }

    /** Every table's columns and rows, and every sequence's value, read through the fixture's own connection. */
    @Override
    protected String readFingerprint() throws SQLException {
        StringBuilder text = new StringBuilder();
        try (Connection c = connect(";IFEXISTS=TRUE"); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT TABLE_NAME, COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS"
                    + " WHERE TABLE_SCHEMA = 'PUBLIC' ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
                while (rs.next()) {
                    text.append(rs.getString(1)).append('|').append(rs.getString(2)).append('|').append(rs.getString(3)).append('\n');
                    if (!tables.contains(rs.getString(1))) {
                        tables.add(rs.getString(1));
                    }
                }
            }
            for (String table : tables) {
                try (ResultSet rs = s.executeQuery("SELECT * FROM \"" + table + "\" ORDER BY 1")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        text.append(table).append(':');
                        for (int i = 1; i <= n; i++) {
                            text.append(rs.getString(i)).append('|');
                        }
                        text.append('\n');
                    }
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT SEQUENCE_NAME, BASE_VALUE FROM INFORMATION_SCHEMA.SEQUENCES ORDER BY 1")) {
                while (rs.next()) {
                    text.append("sequence ").append(rs.getString(1)).append('=').append(rs.getString(2)).append('\n');
                }
            }
        }
        return text.toString();
    }

    @Override
    public String runawayQuery() {
        // 46 billion rows: never done within a limit (a 4-way join, 13 million rows, took 6 s on a loaded
        // machine but finished within the 2 s of the whole-call deadline test on a quiet one)
        return claimsCrossJoin(6);
    }

    /** The standard writes, H2's data-change table (a write H2 runs as a query), a sequence and a setting. */
    @Override
    public List<EngineWrite> engineWrites() {
        List<EngineWrite> writes = new ArrayList<>(EngineWrite.standard());
        writes.add(EngineWrite.refused(EngineWrite.Kind.INSERT, "SELECT * FROM FINAL TABLE (INSERT INTO regions VALUES ('probe', 'probe'))"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.UPDATE, "SELECT * FROM FINAL TABLE (UPDATE claims SET amount = amount + 1)"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.DDL, "SELECT * FROM FINAL TABLE (DELETE FROM regions)"));
        // the engine refuses to start on a database holding sequences (H2 advances them read-only)
        writes.add(EngineWrite.refused(EngineWrite.Kind.SEQUENCE_ADVANCE, "SELECT NEXT VALUE FOR sqlguard_seq AS n"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET QUERY_TIMEOUT 0",
                "SELECT SETTING_VALUE AS n FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'QUERY_TIMEOUT'"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET @probe = 1", "SELECT @probe AS n"));
        return writes;
    }

    @Override
    public List<String> dialectForbiddenStatements() {
        return List.of("SET QUERY_TIMEOUT 0", "SHUTDOWN", "SCRIPT TO 'dump.sql'", "RUNSCRIPT FROM 'dump.sql'", "BACKUP TO 'b.zip'",
                "SELECT * FROM FINAL TABLE (DELETE FROM regions)", "SET @x = 1", "SELECT SET(@x, 1) AS y", "CREATE ALIAS f FOR 'java.lang.System.exit'");
    }

    @Override
    public List<String> dialectExternalAccess() {
        return List.of("SELECT FILE_READ('/etc/passwd') AS f", "SELECT * FROM CSVREAD('/etc/passwd')",
                "CALL CSVWRITE('/tmp/sqlguard-contract-outfile', 'SELECT 1')", "SELECT FILE_WRITE('x', '/tmp/sqlguard-contract-outfile') AS f",
                "SELECT * FROM LINK_SCHEMA('x', '', 'jdbc:h2:mem:x', 'sa', '', 'PUBLIC')");
    }

    /** The plug-in: this adapter's classes and the H2 driver, as a plug-in folder would hold them. */
    @Override
    public List<Class<?>> pluginClasses() {
        return factory.getClass() == H2EngineFactory.class ? List.of(H2EngineFactory.class, org.h2.Driver.class)
                : List.of(factory.getClass(), H2EngineFactory.class, org.h2.Driver.class);
    }

    @Override
    public void close() {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
