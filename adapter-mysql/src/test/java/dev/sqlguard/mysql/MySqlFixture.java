package dev.sqlguard.mysql;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineWrite;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/** A private {@code sqlguard_t_*} database on the test server, queried through one of the two accounts. */
final class MySqlFixture extends PrivateDatabaseFixture {
    private final TestServer.Coordinates server;
    private final String database;
    private final boolean admin;

    MySqlFixture(boolean admin) throws SQLException {
        this(TestServer.defaults(), admin);
    }

    MySqlFixture(TestServer.Coordinates server, boolean admin) throws SQLException {
        this.server = server;
        this.admin = admin;
        this.database = TestServer.createDatabase(server);
        // for the contract's engine-level writes: functions that write (Connector/J refuses a data change
        // in executeQuery before the server sees it) and, on MariaDB, a sequence
        try (java.sql.Connection c = TestServer.admin(server, database); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE FUNCTION sqlguard_insert() RETURNS INT MODIFIES SQL DATA BEGIN"
                    + " INSERT INTO regions VALUES ('probe', 'probe'); RETURN 1; END");
            s.execute("CREATE FUNCTION sqlguard_update() RETURNS INT MODIFIES SQL DATA BEGIN"
                    + " UPDATE claims SET amount = amount + 1 WHERE id = 1; RETURN 1; END");
            if (c.getMetaData().getDatabaseProductVersion().contains("MariaDB")) {
                s.execute("CREATE SEQUENCE sqlguard_seq");
            }
        }
    }

    @Override
    public EngineFactory factory() {
        return new MySqlEngineFactory();
    }

    @Override
    protected Map<String, String> properties() {
        return TestServer.properties(server, database, admin);
    }

    @Override
    protected String readFingerprint() throws SQLException {
        return TestServer.fingerprint(server, database);
    }

    @Override
    public String runawayQuery() {
        return claimsCrossJoin(6);
    }

    @Override
    public List<String> dialectForbiddenStatements() {
        return List.of(
                "SET SESSION TRANSACTION READ WRITE", "SET SESSION tx_read_only = 0", "SET @@session.transaction_read_only = 0",
                "SET STATEMENT tx_read_only = 0 FOR DELETE FROM claims", "SET GLOBAL max_connections = 1",
                "/*!DELETE FROM claims*/", "SELECT id FROM claims /*! ; DELETE FROM claims */",
                "LOCK TABLES claims WRITE", "LOCK TABLES claims READ", "HANDLER users OPEN", "DO sleep(1)",
                "PREPARE s FROM 'DELETE FROM claims'", "EXECUTE s", "SELECT NEXTVAL(seq)", "SELECT id FROM claims FOR UPDATE",
                "SELECT id FROM claims LOCK IN SHARE MODE", "SELECT id INTO @v FROM claims", "SELECT @@version",
                "SHOW GRANTS", "SHOW TABLES", "SELECT user, password FROM mysql.user", "KILL QUERY 1", "FLUSH PRIVILEGES",
                "RENAME TABLE claims TO c2", "SELECT sleep(5)", "SELECT benchmark(100000000, 1)", "SELECT get_lock('x', 5)");
    }

    /**
     * The standard writes (Connector/J refuses their data changes in executeQuery itself) and the same
     * changes through functions that write, which reach the server; the read-only switch and a user
     * variable set by SET (MariaDB refuses it under tx_read_only); and the sequence. Not here: a user
     * variable assigned inside a SELECT ({@code SELECT @v := 2}) runs under tx_read_only and stays on
     * the pooled connection for the next call (the validator refuses every variable); clearing it per
     * call would cost a COM_CHANGE_USER (resetServerState, 62 ms) or a read of
     * information_schema.USER_VARIABLES (+1.3 ms), measured on MariaDB 10.11.
     */
    @Override
    public List<EngineWrite> engineWrites() {
        List<EngineWrite> writes = new java.util.ArrayList<>(EngineWrite.standard());
        writes.add(EngineWrite.refused(EngineWrite.Kind.INSERT, "SELECT sqlguard_insert() AS n"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.UPDATE, "SELECT sqlguard_update() AS n"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.DDL, "CREATE TABLE sqlguard_probe AS SELECT id FROM claims"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.SEQUENCE_ADVANCE, "SELECT NEXTVAL(sqlguard_seq) AS n"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET SESSION tx_read_only = 0", "SELECT @@tx_read_only AS n"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET @sqlguard_probe = 1", "SELECT @sqlguard_probe AS n"));
        return writes;
    }

    /** The plug-in as a folder would hold it: the adapter and Connector/J (HikariCP and JSqlParser are the host's). */
    @Override
    public List<Class<?>> pluginClasses() {
        return List.of(MySqlEngineFactory.class, com.mysql.cj.jdbc.Driver.class);
    }

    @Override
    public List<String> dialectExternalAccess() {
        return List.of(
                "LOAD DATA INFILE '/etc/passwd' INTO TABLE claims",
                "LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE claims",
                "SELECT id FROM claims /*! INTO OUTFILE '/tmp/sqlguard-contract-outfile' */",
                "SELECT id FROM claims /*M!100000 INTO DUMPFILE '/tmp/sqlguard-contract-dumpfile' */",
                "SELECT id FROM claims INTO OUTFILE '/tmp/sqlguard-contract-outfile' FIELDS TERMINATED BY ','",
                "SELECT id FROM other_db.claims");
    }

    @Override
    public void close() {
        TestServer.dropDatabase(server, database);
    }
}
