package dev.sqlguard.trino;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineFixture;

/** A private {@code sqlguard_t_*} schema in the test cluster's memory catalog, queried as one of the test users. */
final class TrinoFixture implements EngineFixture {
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
    public Engine engine(String sourceId, GuardrailPolicy policy) {
        return factory().create(new EngineConfig(sourceId, TestCluster.properties(schema, user), policy), EngineContext.of(Path.of("target")));
    }

    @Override
    public String fingerprint() {
        try {
            return TestCluster.fingerprint(schema);
        } catch (SQLException e) {
            throw new IllegalStateException("fingerprint failed", e);
        }
    }

    @Override
    public String runawayQuery() {
        return "SELECT count(*) AS n FROM claims a JOIN claims b ON a.id > 0 JOIN claims c ON c.id > 0"
                + " JOIN claims d ON d.id > 0 JOIN claims e ON e.id > 0 JOIN claims f ON f.id > 0 JOIN claims g ON g.id > 0";
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
