package dev.sqlguard.testing.memory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;
import dev.sqlguard.testing.EngineWrite;

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
            public Engine engine(EngineFactory other, String sourceId, GuardrailPolicy policy) {
                return other.create(new EngineConfig(sourceId, Map.of("runawayQuery", RUNAWAY), policy), context);
            }

            /** The kit's fake is no plug-in: its factory takes its tables in its constructor. */
            @Override
            public List<Class<?>> pluginClasses() {
                return List.of();
            }

            /** The fake runs only plans its validator compiled, so its raw port compiles the text first, policy aside. */
            @Override
            public ExecutionPort rawPort(Engine engine) {
                return plan -> engine.binding().execution().execute(engine.binding().validator().validate(
                        new QueryRequest(plan.sourceId(), plan.executableSql(), plan.parameters(), "raw")));
            }

            /** The fake has no setting, temp table or sequence: each such statement is text it cannot read. */
            @Override
            public List<EngineWrite> engineWrites() {
                List<EngineWrite> writes = new java.util.ArrayList<>(EngineWrite.standard());
                writes.add(EngineWrite.refused(EngineWrite.Kind.SEQUENCE_ADVANCE, "SELECT nextval('s') AS n FROM claims"));
                writes.add(EngineWrite.traced(EngineWrite.Kind.SETTING, "SET runawayQuery = 'x'", "SELECT id FROM claims WHERE id = 1"));
                return writes;
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
