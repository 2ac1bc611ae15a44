package dev.sqlguard.postgresql;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/**
 * The engine contract with a SUPERUSER role and {@code requireReadOnlyAccount: false}: every refusal
 * and the unchanged fingerprint come from sqlguard's own controls, not from grants.
 */
@Tag("postgresql")
class PostgresSuperuserContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        return new PostgresFixture(true);
    }
}
