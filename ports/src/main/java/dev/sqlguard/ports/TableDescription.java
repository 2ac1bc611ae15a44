package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.OptionalLong;

import dev.sqlguard.domain.TableRef;

/** One allowlisted table as an agent sees it. */
public record TableDescription(TableRef table, List<ColumnDescription> columns, OptionalLong rowCount) {
    public TableDescription {
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rowCount, "rowCount is null");
    }

    /** One allowlisted column: name, engine type, and whether its values are redacted. */
    public record ColumnDescription(String name, String type, boolean redacted) {
        public ColumnDescription {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }
}
