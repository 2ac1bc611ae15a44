package dev.sqlguard.postgresql;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineWrite;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/** A private {@code sqlguard_t_*} schema on the test server, queried through one of the two roles. */
final class PostgresFixture extends PrivateDatabaseFixture {
    private final TestServer.Coordinates server;
    private final String schema;
    private final boolean admin;

    PostgresFixture(boolean admin) throws SQLException {
        this(TestServer.defaults(), admin);
    }

    PostgresFixture(TestServer.Coordinates server, boolean admin) throws SQLException {
        this.server = server;
        this.admin = admin;
        this.schema = TestServer.createSchema(server);
        try (java.sql.Connection c = TestServer.admin(server); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE " + schema + ".sqlguard_seq"); // for the contract's sequence advance
        }
    }

    String schema() {
        return schema;
    }

    TestServer.Coordinates server() {
        return server;
    }

    @Override
    public EngineFactory factory() {
        return new PostgresEngineFactory();
    }

    @Override
    protected Map<String, String> properties() {
        return TestServer.properties(server, schema, admin);
    }

    @Override
    protected String readFingerprint() throws SQLException {
        return TestServer.fingerprint(server, schema);
    }

    @Override
    public String runawayQuery() {
        return claimsCrossJoin(6);
    }

    @Override
    public List<String> dialectForbiddenStatements() {
        return List.of(
                "SET default_transaction_read_only = off", "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                "SET search_path = public", "RESET ALL", "SELECT set_config('default_transaction_read_only', 'off', false)",
                "SELECT current_setting('data_directory')", "SELECT pg_sleep(5)", "SELECT pg_sleep_for('5 seconds')",
                "SELECT pg_advisory_lock(1)", "SELECT pg_terminate_backend(1)", "SELECT pg_cancel_backend(1)",
                "SELECT nextval('s')", "SELECT setval('s', 1)", "SELECT txid_current()",
                "SELECT id FROM claims FOR UPDATE", "SELECT id FROM claims FOR SHARE", "SELECT id FROM claims FOR NO KEY UPDATE",
                "WITH x AS (DELETE FROM claims RETURNING id) SELECT id FROM x", "SELECT id INTO evil FROM claims",
                "DO $$ BEGIN DELETE FROM claims; END $$", "LISTEN x", "NOTIFY x", "LOCK TABLE claims",
                "PREPARE p AS DELETE FROM claims", "EXECUTE p", "DEALLOCATE ALL", "DISCARD ALL",
                "SELECT rolname FROM pg_catalog.pg_roles", "SELECT usename, passwd FROM pg_shadow", "SELECT * FROM pg_authid",
                "SELECT table_name FROM information_schema.tables", "SELECT query_to_xml('DELETE FROM claims', true, true, '')",
                "SELECT id FROM claims WHERE id = 1 OR $$x$$ = 'x'", "SELECT E'\\x41' AS a", "SELECT U&'\\0041' AS a",
                "SELECT id FROM claims /* a /* nested */ comment */", "SELECT version()", "SELECT current_user",
                "SELECT 2 ^ 3 AS x", "SELECT id FROM claims WHERE region ~ 'n'", "TABLE claims", "VALUES (1)",
                "SHOW search_path", "ANALYZE claims", "REINDEX TABLE claims", "CLUSTER claims", "REFRESH MATERIALIZED VIEW v",
                "SECURITY LABEL ON TABLE claims IS 'x'", "COMMENT ON TABLE claims IS 'x'", "ALTER SYSTEM SET work_mem = '1GB'",
                "CREATE EXTENSION dblink", "SELECT dblink('host=127.0.0.1', 'DELETE FROM claims')");
    }

    /**
     * The standard writes in forms pgjdbc runs as a query ({@code RETURNING}, a data-modifying CTE),
     * the read-only switch and a setting by function, and the schema's sequence.
     */
    @Override
    public List<EngineWrite> engineWrites() {
        List<EngineWrite> writes = new java.util.ArrayList<>(EngineWrite.standard());
        writes.add(EngineWrite.refused(EngineWrite.Kind.INSERT, "INSERT INTO regions VALUES ('probe', 'probe') RETURNING region"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.UPDATE,
                "WITH x AS (UPDATE claims SET amount = amount + 1 RETURNING id) SELECT count(*) AS n FROM x"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.DDL, "SELECT id INTO sqlguard_probe FROM claims"));
        writes.add(EngineWrite.refused(EngineWrite.Kind.SEQUENCE_ADVANCE, "SELECT nextval('sqlguard_seq') AS n"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SELECT set_config('statement_timeout', '0', false) AS n",
                "SELECT current_setting('statement_timeout') AS n"));
        writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
                "SELECT current_setting('default_transaction_read_only') AS n"));
        return writes;
    }

    /** The plug-in as a folder would hold it: the adapter and pgjdbc (HikariCP and JSqlParser are the host's). */
    @Override
    public List<Class<?>> pluginClasses() {
        return List.of(PostgresEngineFactory.class, org.postgresql.Driver.class);
    }

    @Override
    public List<String> dialectExternalAccess() {
        return List.of(
                "SELECT pg_read_file('/etc/passwd') AS f",
                "SELECT pg_read_binary_file('/etc/passwd') AS f",
                "SELECT pg_ls_dir('/') AS f",
                "SELECT lo_import('/etc/passwd') AS f",
                "SELECT lo_export(1, '/tmp/sqlguard-contract-outfile') AS f",
                "COPY claims TO '/tmp/sqlguard-contract-outfile'",
                "COPY claims TO PROGRAM 'touch /tmp/sqlguard-contract-outfile'",
                "COPY (SELECT 1) TO STDOUT",
                "SELECT id FROM other_schema.claims",
                "SELECT dblink_exec('host=127.0.0.1 dbname=test', 'DELETE FROM claims') AS x");
    }

    @Override
    public void close() {
        TestServer.dropSchema(server, schema);
    }
}
