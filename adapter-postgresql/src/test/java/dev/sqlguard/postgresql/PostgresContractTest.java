package dev.sqlguard.postgresql;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract on the local PostgreSQL (SQLGUARD_PG_URL) with the least-privilege role. */
@Tag("postgresql")
class PostgresContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        return new PostgresFixture(false);
    }
}
