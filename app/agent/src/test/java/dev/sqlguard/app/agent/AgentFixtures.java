package dev.sqlguard.app.agent;

import java.nio.file.Path;
import java.util.List;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.app.GuardedCalls;
import dev.sqlguard.app.tools.AgentTools;
import dev.sqlguard.app.tools.AgentSource;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.memory.ContractTables;
import dev.sqlguard.testing.memory.InMemoryEngine;
import dev.sqlguard.testing.memory.InMemoryEngineFactory;

/** The in-memory fake engine over the contract dataset's 60 claims, and an audit sink that keeps events. */
final class AgentFixtures {
    static final String SOURCE = "claims_db";

    private AgentFixtures() {
    }

    static InMemoryEngine engine() {
        return engine(GuardrailPolicy.defaults());
    }

    static InMemoryEngine engine(GuardrailPolicy policy) {
        return new InMemoryEngine(SOURCE, policy, InMemoryEngine.tables(ContractTables.claims()), sql -> sql.contains("'RUNAWAY'"));
    }

    static AgentSource source() {
        return source(engine());
    }

    /** The engine as a source of the in-memory engine's factory: its name and dialect. */
    static AgentSource source(Engine engine) {
        return new AgentSource(engine, InMemoryEngineFactory.NAME, InMemoryEngineFactory.DIALECT);
    }

    static final class RecordingAudit implements AuditSink {
        final List<AuditEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void audit(AuditEvent event) {
            events.add(event);
        }
    }

    static AgentTools tools(QueryService service, Path charts) {
        return new AgentTools(GuardedCalls.over(service, engine -> engine.policy()), List.of(source()), charts);
    }
}
