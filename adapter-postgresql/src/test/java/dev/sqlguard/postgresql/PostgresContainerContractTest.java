package dev.sqlguard.postgresql;

import org.junit.jupiter.api.Tag;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.postgresql.PostgreSQLContainer;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/**
 * The engine contract on PostgreSQL 15 in a container, with the least-privilege role. It skips
 * cleanly where no Docker engine runs; {@link PostgresContractTest} runs the same suite on the
 * server named by {@code SQLGUARD_PG_URL}.
 */
@Tag("postgresql")
@Testcontainers(disabledWithoutDocker = true)
class PostgresContainerContractTest extends EngineContractSuite {
    @Container
    static final PostgreSQLContainer POSTGRES = new PostgreSQLContainer("postgres:15").withDatabaseName("test");

    @Override
    protected EngineFixture createFixture() throws Exception {
        return new PostgresFixture(TestServer.of(POSTGRES), false);
    }
}
