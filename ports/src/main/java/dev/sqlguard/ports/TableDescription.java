package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.OptionalLong;

import dev.sqlguard.domain.TableRef;

/**
 * One allowlisted table as an agent sees it.
 *
 * @param rowCount the exact number of rows, when the engine knows it
 * @param approximateRowCount an estimate (such as InnoDB's {@code TABLE_ROWS}), given only when the
 *     exact count is not known; never shown as a row count
 */
public record TableDescription(TableRef table, List<ColumnDescription> columns, OptionalLong rowCount,
                               OptionalLong approximateRowCount) {
    public TableDescription {
        requireNonNull(table, "table is null");
        columns = List.copyOf(requireNonNull(columns, "columns is null"));
        requireNonNull(rowCount, "rowCount is null");
        requireNonNull(approximateRowCount, "approximateRowCount is null");
    }

    /** A table with an exact row count, or none. */
    public TableDescription(TableRef table, List<ColumnDescription> columns, OptionalLong rowCount) {
        this(table, columns, rowCount, OptionalLong.empty());
    }

    /** One allowlisted column: name, engine type, and whether its values are redacted. */
    public record ColumnDescription(String name, String type, boolean redacted) {
        public ColumnDescription {
            requireNonNull(name, "name is null");
            requireNonNull(type, "type is null");
        }
    }
}
