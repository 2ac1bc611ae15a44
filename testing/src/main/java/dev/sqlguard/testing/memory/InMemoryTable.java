package dev.sqlguard.testing.memory;

import java.util.List;
import java.util.Map;

/** An immutable table for {@link InMemoryEngine}: column names, their type names, and rows. */
public record InMemoryTable(String name, List<String> columns, Map<String, String> types, List<Map<String, Object>> rows) {
    public InMemoryTable {
        columns = List.copyOf(columns);
        types = Map.copyOf(types);
        rows = rows.stream().map(r -> java.util.Collections.unmodifiableMap(new java.util.HashMap<>(r))).toList();
    }

    public String type(String column) {
        return types.getOrDefault(column, "VARCHAR");
    }
}
