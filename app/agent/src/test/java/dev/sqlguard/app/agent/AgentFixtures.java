package dev.sqlguard.app.agent;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.contract.ContractDataset;
import dev.sqlguard.ports.fake.InMemoryEngine;
import dev.sqlguard.ports.fake.InMemoryTable;

/** The in-memory fake engine over the contract dataset's 60 claims, and an audit sink that keeps events. */
final class AgentFixtures {
    static final String SOURCE = "claims_db";

    private AgentFixtures() {
    }

    static InMemoryEngine engine() {
        return engine(GuardrailPolicy.defaults());
    }

    static InMemoryEngine engine(GuardrailPolicy policy) {
        List<Map<String, Object>> claims = ContractDataset.claims().stream().map(c -> {
            Map<String, Object> row = new HashMap<>();
            row.put("id", c.id());
            row.put("region", c.region());
            row.put("amount", c.amount());
            row.put("status", c.status());
            row.put("created", c.created());
            row.put("ssn", c.ssn());
            return row;
        }).toList();
        InMemoryTable table = new InMemoryTable("claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                Map.of("id", "BIGINT", "amount", "DECIMAL(12,2)", "created", "DATE"), claims);
        return new InMemoryEngine(SOURCE, policy, InMemoryEngine.tables(table), sql -> sql.contains("'RUNAWAY'"));
    }

    static AgentSource source() {
        return new AgentSource(engine(), "inmemory");
    }

    static final class RecordingAudit implements AuditSink {
        final List<AuditEvent> events = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public void audit(AuditEvent event) {
            events.add(event);
        }
    }

    static AgentTools tools(QueryService service, Path charts) {
        return new AgentTools(service, List.of(source()), charts);
    }
}
