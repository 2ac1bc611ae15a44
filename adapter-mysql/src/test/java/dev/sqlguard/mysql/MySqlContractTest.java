package dev.sqlguard.mysql;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract with the least-privilege account ({@code SELECT} on the test databases only). */
@Tag("mysql")
class MySqlContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        return new MySqlFixture(false);
    }
}
