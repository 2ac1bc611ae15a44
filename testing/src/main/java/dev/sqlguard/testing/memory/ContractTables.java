package dev.sqlguard.testing.memory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.sqlguard.testing.ContractDataset;

/** {@link ContractDataset}'s three tables as {@link InMemoryTable}s. */
public final class ContractTables {
    private ContractTables() {
    }

    /** {@code claims}, {@code users} and {@code regions}, by name. */
    public static Map<String, InMemoryTable> all() {
        return InMemoryEngine.tables(claims(), users(), regions());
    }

    public static InMemoryTable claims() {
        List<Map<String, Object>> rows = ContractDataset.claims().stream().map(c -> {
            Map<String, Object> row = new HashMap<>();
            row.put("id", c.id());
            row.put("region", c.region());
            row.put("amount", c.amount());
            row.put("status", c.status());
            row.put("created", c.created());
            row.put("ssn", c.ssn());
            return row;
        }).toList();
        return new InMemoryTable("claims", List.of("id", "region", "amount", "status", "created", "ssn"),
                Map.of("id", "BIGINT", "amount", "DECIMAL(12,2)", "created", "DATE"), rows);
    }

    public static InMemoryTable users() {
        List<Map<String, Object>> rows = ContractDataset.users().stream().map(u -> Map.<String, Object>of(
                "id", u.id(), "name", u.name(), "password", u.password(), "api_key", u.apiKey())).toList();
        return new InMemoryTable("users", List.of("id", "name", "password", "api_key"), Map.of("id", "BIGINT"), rows);
    }

    public static InMemoryTable regions() {
        List<Map<String, Object>> rows = ContractDataset.regions().stream().map(r -> Map.<String, Object>of(
                "region", r.region(), "manager", r.manager())).toList();
        return new InMemoryTable("regions", List.of("region", "manager"), Map.of(), rows);
    }
}
