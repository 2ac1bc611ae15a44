package dev.sqlguard.trino;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.PrivateDatabaseFixture;

/** A private {@code sqlguard_t_*} schema in the test cluster's memory catalog, queried as one of the test users. */
final class TrinoFixture extends PrivateDatabaseFixture {
    private final String schema;
    private final String user;

    TrinoFixture(String user) throws SQLException {
        this.user = user;
        this.schema = TestCluster.createSchema();
    }

    String schema() {
        return schema;
    }

    @Override
    public EngineFactory factory() {
        return new TrinoEngineFactory();
    }

    @Override
    protected Map<String, String> properties() {
        return TestCluster.properties(schema, user);
    }

    @Override
    protected String readFingerprint() throws SQLException {
        return TestCluster.fingerprint(schema);
    }

    @Override
    public String runawayQuery() {
        return claimsCrossJoin(7);
    }

    @Override
    public List<String> dialectForbiddenStatements() {
        return TrinoVectors.FORBIDDEN;
    }

    /**
     * The standard writes (the cluster's access control refuses them to the read-only user; Trino has
     * no temp tables), a session setting (client state of a connection that lives for one call), and a
     * sequence advance, which Trino has no function for.
     */
    @Override
    public List<dev.sqlguard.testing.EngineWrite> engineWrites() {
        List<dev.sqlguard.testing.EngineWrite> writes = new java.util.ArrayList<>(dev.sqlguard.testing.EngineWrite.standard());
        writes.add(dev.sqlguard.testing.EngineWrite.refused(dev.sqlguard.testing.EngineWrite.Kind.INSERT,
                "INSERT INTO regions SELECT 'probe', 'probe'"));
        writes.add(dev.sqlguard.testing.EngineWrite.refused(dev.sqlguard.testing.EngineWrite.Kind.DDL,
                "CREATE TABLE sqlguard_probe AS SELECT id FROM claims"));
        writes.add(dev.sqlguard.testing.EngineWrite.refused(dev.sqlguard.testing.EngineWrite.Kind.SEQUENCE_ADVANCE,
                "SELECT nextval('sqlguard_seq') AS n"));
        writes.add(dev.sqlguard.testing.EngineWrite.traced(dev.sqlguard.testing.EngineWrite.Kind.SETTING,
                "SET TIME ZONE 'Pacific/Apia'", "SELECT CAST(current_timezone() AS varchar) AS n"));
        return writes;
    }

    /** The plug-in as a folder would hold it: the adapter and trino-jdbc (JSqlParser and Jackson are the host's). */
    @Override
    public List<Class<?>> pluginClasses() {
        return List.of(TrinoEngineFactory.class, io.trino.jdbc.TrinoDriver.class);
    }

    @Override
    public List<String> dialectExternalAccess() {
        return TrinoVectors.EXTERNAL;
    }

    @Override
    public void close() {
        TestCluster.dropSchema(schema);
    }
}
