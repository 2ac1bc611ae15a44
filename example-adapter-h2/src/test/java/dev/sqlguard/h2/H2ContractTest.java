package dev.sqlguard.h2;

import java.nio.file.Files;

import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract on an H2 database file, as its owner: every refusal must come from sqlguard or from H2's read-only open. */
class H2ContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        return new H2Fixture(Files.createTempDirectory("sqlguard-h2-contract-"), new H2EngineFactory());
    }
}
