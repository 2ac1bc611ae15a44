package dev.sqlguard.mysql.internal;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.LocalTime;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.jdbc.JdbcCursor;
import dev.sqlguard.jdbc.JdbcValues;

/** What reading a MySQL/MariaDB result adds to the JDBC kit's defaults: the engine's {@link JdbcCursor.Flavor}. */
final class MySqlValues {
    /** MariaDB's warning that a recursive CTE stopped at {@code max_recursive_iterations}. */
    private static final int RECURSION_LIMIT_WARNING = 1931;

    static final JdbcCursor.Flavor FLAVOR = new JdbcCursor.Flavor() {
        /**
         * The kit's standard reading, with Connector/J's zone-typed temporals read as local values (the
         * session's time zone is the server's) and a FLOAT as the double its text shows ({@code 0.1}, not
         * {@code 0.10000000149011612}).
         */
        @Override
        public Object read(ResultSet rs, int column, int jdbcType) throws SQLException {
            return switch (jdbcType) {
                case Types.TIME_WITH_TIMEZONE -> rs.getObject(column, LocalTime.class);
                case Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(column, LocalDateTime.class);
                default -> {
                    Object value = JdbcValues.STANDARD.read(rs, column, jdbcType);
                    yield value instanceof Float f ? Double.valueOf(f.toString()) : value;
                }
            };
        }

        /** Columns are typed by their JDBC type name ({@code VARCHAR}, {@code DECIMAL}, ...), not the server's spelling. */
        @Override
        public ResultColumn describe(ResultSetMetaData metadata, int column) throws SQLException {
            return new ResultColumn(metadata.getColumnLabel(column), JdbcValues.typeName(metadata.getColumnType(column)));
        }

        /** MariaDB ends a recursive CTE at its iteration limit with only a warning: an incomplete result is refused. */
        @Override
        public void atEnd(Statement statement) throws SQLException {
            for (SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
                if (w.getErrorCode() == RECURSION_LIMIT_WARNING) {
                    throw new GuardException(ErrorCode.QUERY_FAILED, SqlErrors.RECURSION_MESSAGE);
                }
            }
        }
    };

    private MySqlValues() {
    }
}
