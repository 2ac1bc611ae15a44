package dev.sqlguard.mysql;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.EngineFactory;
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
