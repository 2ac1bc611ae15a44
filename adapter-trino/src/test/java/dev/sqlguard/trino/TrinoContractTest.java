package dev.sqlguard.trino;

import org.junit.jupiter.api.Tag;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract on the multi-node test cluster (Java 25), as the read-only user. */
@Tag("trino")
class TrinoContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        TestCluster.require();
        return new TrinoFixture(TestCluster.READ_ONLY);
    }
}
