package dev.sqlguard.testing.memory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** Runs the engine-independent part of the contract on the in-memory engine (it has no capabilities). */
class InMemoryEngineContractTest extends EngineContractSuite {
    static final String RUNAWAY = "SELECT id FROM claims WHERE status = 'RUNAWAY'";

    @Override
    protected EngineFixture createFixture() {
        Map<String, InMemoryTable> tables = ContractTables.all();
        InMemoryEngineFactory factory = new InMemoryEngineFactory(tables);
        EngineContext context = EngineContext.of(Path.of("target", "memory-work")); // the engine writes no file
        return new EngineFixture() {
            @Override
            public EngineFactory factory() {
                return factory;
            }

            @Override
            public Engine engine(String sourceId, GuardrailPolicy policy) {
                return factory.create(new EngineConfig(sourceId, Map.of("runawayQuery", RUNAWAY), policy), context);
            }

            @Override
            public String fingerprint() {
                return Integer.toHexString(Objects.hash(tables));
            }

            @Override
            public String runawayQuery() {
                return RUNAWAY;
            }

            @Override
            public List<String> dialectForbiddenStatements() {
                return List.of();
            }

            @Override
            public List<String> dialectExternalAccess() {
                return List.of();
            }

            @Override
            public void close() {
            }
        };
    }
}
