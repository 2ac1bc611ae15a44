package dev.sqlguard.postgresql.internal;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;

import org.postgresql.util.PGobject;

import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.jdbc.JdbcCursor;
import dev.sqlguard.jdbc.JdbcValues;

/** What reading a PostgreSQL result adds to the JDBC kit's defaults: the engine's {@link JdbcCursor.Flavor}. */
final class PostgresValues {
    static final JdbcCursor.Flavor FLAVOR = new JdbcCursor.Flavor() {
        /** pgjdbc reports {@code timestamptz} as {@code TIMESTAMP}: the server's type name tells them apart. */
        @Override
        public int type(ResultSetMetaData metadata, int column) throws SQLException {
            return "timestamptz".equals(metadata.getColumnTypeName(column)) ? Types.TIMESTAMP_WITH_TIMEZONE : metadata.getColumnType(column);
        }

        /**
         * The kit's standard reading, with arrays, composites, XML, large objects and the server's own
         * types ({@code OTHER}: intervals, json, uuid, ...) read as the text PostgreSQL prints, and a
         * {@code real} as the double its text shows ({@code 0.1}, not {@code 0.10000000149011612}).
         */
        @Override
        public Object read(ResultSet rs, int column, int jdbcType) throws SQLException {
            return switch (jdbcType) {
                case Types.ARRAY, Types.STRUCT, Types.OTHER, Types.SQLXML, Types.BLOB, Types.CLOB -> rs.getString(column);
                default -> {
                    Object value = JdbcValues.STANDARD.read(rs, column, jdbcType);
                    if (value instanceof Float f) {
                        yield Double.valueOf(f.toString());
                    }
                    yield value instanceof PGobject o ? o.getValue() : value;
                }
            };
        }

        /** Columns are typed by their JDBC type name ({@code VARCHAR}, {@code NUMERIC}, {@code TIMESTAMP_WITH_TIMEZONE}, ...). */
        @Override
        public ResultColumn describe(ResultSetMetaData metadata, int column) throws SQLException {
            return new ResultColumn(metadata.getColumnLabel(column), JdbcValues.typeName(type(metadata, column)));
        }
    };

    private PostgresValues() {
    }
}
