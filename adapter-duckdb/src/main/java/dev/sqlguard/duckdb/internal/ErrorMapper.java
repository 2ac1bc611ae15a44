package dev.sqlguard.duckdb.internal;

import java.sql.SQLException;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Turns DuckDB errors into a stable code and a sentence of our own. DuckDB's text never leaves:
 * it can hold the home directory, the database path, the Java binary path and the process id.
 */
final class ErrorMapper {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

    private ErrorMapper() {
    }

    /**
     * Whether the driver hid the error: DuckDB JDBC 2.0.0.1 with {@code jdbc_stream_results=true}
     * replaces every runtime error of a streamed query (out of memory, conversion, overflow) by
     * "Invalid result set", with no cause ({@link StreamedFailure} finds the real one).
     */
    static boolean isOpaque(SQLException e) {
        return String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("invalid result set");
    }

    static GuardException map(SQLException e) {
        LOG.debug("DuckDB error", e);
        String text = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        if (text.contains("out of memory")) {
            return new GuardException(ErrorCode.EXCEEDED_MEMORY_LIMIT,
                    "The query needed more memory than this source allows; aggregate more or select fewer columns.", e);
        }
        if (isOpaque(e)) {
            // the cause is lost; StreamedFailure runs the plan again to find it, and this stays
            // only when that cannot tell
            return new GuardException(ErrorCode.QUERY_FAILED, "The query failed while running: it may have needed more memory "
                    + "than this source allows, or a value could not be converted; aggregate more or use TRY_CAST.", e);
        }
        if (text.contains("interrupt")) {
            return new GuardException(ErrorCode.CANCELLED, "The query was stopped.", e);
        }
        if (text.contains("permission error") || text.contains("external access") || text.contains("disabled by configuration")) {
            boolean external = text.contains("external") || text.contains("file") || text.contains("access");
            return new GuardException(external ? ErrorCode.EXTERNAL_ACCESS_DENIED : ErrorCode.PERMISSION_DENIED,
                    external ? "The query tried to reach files, the network or other databases, which this source forbids."
                            : "DuckDB refused the operation as not permitted.", e);
        }
        if (text.contains("read-only") || text.contains("read only") || text.contains("configuration has been locked")) {
            return new GuardException(ErrorCode.PERMISSION_DENIED, "DuckDB refused the operation as not permitted on a read-only source.", e);
        }
        if (text.contains("binder error")) {
            if (text.contains("ambiguous")) {
                return new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "A column name matches more than one table; qualify it.", e);
            }
            if (text.contains("column") && (text.contains("not found") || text.contains("does not have a column"))) {
                return new GuardException(ErrorCode.UNKNOWN_COLUMN, "A column the query names does not exist where it is used.", e);
            }
            if (text.contains("group by") || text.contains("aggregate")) {
                return new GuardException(ErrorCode.QUERY_FAILED,
                        "Every selected column must be in GROUP BY or inside an aggregate function.", e);
            }
            if (text.contains("no function matches") || text.contains("could not choose")) {
                return new GuardException(ErrorCode.QUERY_FAILED, "A function was called with argument types it does not accept; add casts.", e);
            }
            return new GuardException(ErrorCode.QUERY_FAILED, "DuckDB could not bind the query; check names and types.", e);
        }
        if (text.contains("conversion error") || text.contains("invalid input") || text.contains("out of range")) {
            return new GuardException(ErrorCode.QUERY_FAILED, "A value could not be converted or was out of range while running the query.", e);
        }
        if (text.contains("parameter") && (text.contains("value") || text.contains("provided"))) {
            return new GuardException(ErrorCode.PARAMETER_COUNT_MISMATCH, ErrorCode.PARAMETER_COUNT_MISMATCH.defaultMessage(), e);
        }
        if (text.contains("divide by zero") || text.contains("division by zero")) {
            return new GuardException(ErrorCode.QUERY_FAILED, "The query divided by zero.", e);
        }
        if (text.contains("catalog error")) {
            return new GuardException(ErrorCode.QUERY_FAILED, "The query names a table, type or function the engine does not know.", e);
        }
        return new GuardException(ErrorCode.QUERY_FAILED, "DuckDB could not run the query.", e);
    }
}
