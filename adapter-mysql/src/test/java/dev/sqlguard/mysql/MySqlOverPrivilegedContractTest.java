package dev.sqlguard.mysql;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/**
 * The engine contract with an account holding ALL PRIVILEGES WITH GRANT OPTION: every refusal and
 * the unchanged fingerprint come from sqlguard's own controls, not from grants.
 */
@Tag("mysql")
class MySqlOverPrivilegedContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        return new MySqlFixture(true);
    }
}
