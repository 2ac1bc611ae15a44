package dev.sqlguard.duckdb.internal;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.duckdb.DuckDBStruct;

import dev.sqlguard.jdbc.JdbcCursor;
import dev.sqlguard.jdbc.JdbcValues;

/**
 * DuckDB JDBC values to the domain's types: a STRUCT becomes a map of its named fields (DuckDB's
 * driver type keeps the names that {@link java.sql.Struct} drops), everything else, at every level
 * of nesting, goes through the kit's {@link JdbcValues#convert}.
 */
final class DuckDbValues {
    /** Reads every column through {@code getObject}, as DuckDB's driver types it, then converts it. */
    static final JdbcCursor.ValueReader READER = (rs, column, jdbcType) -> convert(rs.getObject(column));

    private DuckDbValues() {
    }

    static Object convert(Object value) throws SQLException {
        if (value instanceof DuckDBStruct struct) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> e : struct.getMap().entrySet()) {
                out.put(e.getKey(), convert(e.getValue()));
            }
            return out;
        }
        return JdbcValues.convert(value, DuckDbValues::convert);
    }
}
