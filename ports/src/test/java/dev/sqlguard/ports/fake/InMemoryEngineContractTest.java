package dev.sqlguard.ports.fake;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.contract.ContractDataset;
import dev.sqlguard.ports.contract.EngineContractSuite;
import dev.sqlguard.ports.contract.EngineFixture;

/** Runs the engine-independent part of the contract on the in-memory fake (it has no capabilities). */
class InMemoryEngineContractTest extends EngineContractSuite {
    static final String RUNAWAY = "SELECT id FROM claims WHERE status = 'RUNAWAY'";

    static Map<String, InMemoryTable> dataset() {
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
        List<Map<String, Object>> users = ContractDataset.users().stream().map(u -> Map.<String, Object>of(
                "id", u.id(), "name", u.name(), "password", u.password(), "api_key", u.apiKey())).toList();
        List<Map<String, Object>> regions = ContractDataset.regions().stream().map(r -> Map.<String, Object>of(
                "region", r.region(), "manager", r.manager())).toList();
        return InMemoryEngine.tables(
                new InMemoryTable("claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                        Map.of("id", "BIGINT", "amount", "DECIMAL(12,2)", "created", "DATE"), claims),
                new InMemoryTable("users", List.of("id", "name", "password", "api_key"), Map.of("id", "BIGINT"), users),
                new InMemoryTable("regions", List.of("region", "manager"), Map.of(), regions));
    }

    @Override
    protected EngineFixture createFixture() {
        Map<String, InMemoryTable> tables = dataset();
        return new EngineFixture() {
            @Override
            public Engine engine(String sourceId, GuardrailPolicy policy) {
                return new InMemoryEngine(sourceId, policy, tables, RUNAWAY::equals);
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
