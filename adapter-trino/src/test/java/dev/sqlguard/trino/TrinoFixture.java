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

    @Override
    public List<String> dialectExternalAccess() {
        return TrinoVectors.EXTERNAL;
    }

    @Override
    public void close() {
        TestCluster.dropSchema(schema);
    }
}
