package dev.sqlguard.duckdb.internal;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcCursor;

/**
 * Runs checked plans on a fresh {@code duplicate()} of the locked instance, one per call, so no
 * temp object, variable or prepared statement outlives the call; the next connection is opened,
 * and the last one closed, off the critical path ({@link FreshConnections}). Results stream; a
 * watchdog stops the query at the plan's deadline, also while {@code rs.next()} is blocked. A
 * streamed failure whose cause the driver hides is run once more to find it ({@link StreamedFailure}).
 */
final class DuckDbExecution implements ExecutionPort, AutoCloseable {
    private final FreshConnections connections;
    private final ScheduledExecutorService watchdog;
    private final Optional<SpillGuard> spill;
    private final java.util.concurrent.atomic.AtomicLong failuresRerun = new java.util.concurrent.atomic.AtomicLong();

    DuckDbExecution(DuckDbInstance instance, ScheduledExecutorService watchdog, String sourceId) {
        this.connections = new FreshConnections(instance, sourceId);
        this.watchdog = watchdog;
        this.spill = instance.spillGuard();
    }

    @Override
    public void close() {
        connections.close();
    }

    /** The per-call connections (for tests of their isolation and lifecycle). */
    FreshConnections connections() {
        return connections;
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        return execute(plan, cursor -> { });
    }

    /** Hands the cursor over before its statement runs: an aggregate streams nothing until it is done. */
    @Override
    public ResultCursor execute(QueryPlan plan, Consumer<ResultCursor> created) {
        long deadline = CallConnection.deadlineNanos(plan.limits().timeout()); // the call's one deadline
        Connection connection = connections.take();
        Statement statement = null;
        try {
            JdbcCursor.Builder cursor;
            // the executable text is DuckDB's own rendering of the checked tree, re-parsed as exactly
            // one SELECT, so running it unprepared when it has no parameters runs nothing else
            if (plan.bindings().size() == 0) {
                connections.prepared(connection, null); // closes a statement prepared ahead for another call
                statement = connection.createStatement();
                cursor = JdbcCursor.over(connection, statement).sql(plan.executableSql());
            } else {
                // a text with parameters runs prepared: DuckDB plans it when it is prepared and again when it
                // runs, so the next connections are stocked with this text prepared, off the critical path
                String sql = plan.executableSql();
                Optional<PreparedStatement> ahead = connections.prepared(connection, sql);
                connections.expect(sql);
                PreparedStatement prepared = ahead.isPresent() ? ahead.get() : connection.prepareStatement(sql);
                statement = prepared;
                bind(prepared, plan.values());
                cursor = JdbcCursor.over(connection, prepared);
            }
            Call call = new Call(plan, deadline);
            // with streaming, cancel() alone does not interrupt a blocked rs.next(); closing the result does
            JdbcCursor running = cursor.deadline(deadline, watchdog)
                    .closeResultToStop()
                    .values(DuckDbValues.READER)
                    .errors(call::map)
                    .release(connections::retire)
                    .onClose(done -> spill.ifPresent(guard -> guard.ended(call)))
                    .build();
            statement = null; // the cursor owns it now, and closes it
            call.cursor = running;
            spill.ifPresent(guard -> guard.started(call));
            created.accept(call);
            call.start();
            return call;
        } catch (SQLException e) {
            JdbcCursor.closeQuietly(statement);
            connections.retire(connection);
            throw ErrorMapper.map(e);
        } catch (GuardException e) {
            if (statement != null) { // refused before the cursor took over (a parameter of an unsupported type)
                JdbcCursor.closeQuietly(statement);
                connections.retire(connection);
            }
            throw e;
        }
    }

    /** Streamed failures whose cause the driver hid, run again to find it ({@link StreamedFailure}). */
    long failuresRerun() {
        return failuresRerun.get();
    }

    /**
     * One call's cursor: the streamed query, and, when it fails with the driver's opaque error,
     * the re-run that finds the real one before the error reaches the caller.
     */
    private final class Call implements ResultCursor, SpillGuard.Query {
        private final QueryPlan plan;
        private final long deadline;
        private final StreamedFailure diagnosis = new StreamedFailure();
        /** Set before the cursor is handed out. */
        private JdbcCursor cursor;
        /** The error the driver's opaque failure mapped to, when there was one. */
        private volatile GuardException opaque;

        Call(QueryPlan plan, long deadline) {
            this.plan = plan;
            this.deadline = deadline;
        }

        GuardException map(SQLException e) {
            GuardException mapped = ErrorMapper.map(e);
            if (ErrorMapper.isOpaque(e)) {
                opaque = mapped;
            }
            return mapped;
        }

        void start() {
            try {
                cursor.start();
            } catch (GuardException e) {
                throw diagnosed(e);
            }
        }

        /** Only the opaque error itself is run again: never a stop (cancel, deadline, spill) nor any other error. */
        private GuardException diagnosed(GuardException e) {
            if (e != opaque) {
                return e;
            }
            cursor.close(); // the failed run's connection goes first
            failuresRerun.incrementAndGet();
            return diagnosis.diagnose(plan, e, deadline, connections, watchdog, spill);
        }

        @Override
        public List<dev.sqlguard.domain.ResultColumn> columns() {
            return cursor.columns();
        }

        @Override
        public boolean next() {
            try {
                return cursor.next();
            } catch (GuardException e) {
                throw diagnosed(e);
            }
        }

        @Override
        public Object get(int index) {
            return cursor.get(index);
        }

        @Override
        public void cancel() {
            cursor.cancel();
            diagnosis.stop(new GuardException(ErrorCode.CANCELLED));
        }

        /** The spill guard's stop. */
        @Override
        public void stop(GuardException reason) {
            cursor.stop(reason);
        }

        @Override
        public void close() {
            cursor.close();
        }
    }

    static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object value = parameters.get(i);
            int index = i + 1;
            if (value == null) {
                statement.setObject(index, null);
            } else if (value instanceof String s) {
                statement.setString(index, s);
            } else if (value instanceof Boolean b) {
                statement.setBoolean(index, b);
            } else if (value instanceof Long l) {
                statement.setLong(index, l);
            } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
                statement.setLong(index, ((Number) value).longValue());
            } else if (value instanceof BigInteger b) {
                statement.setObject(index, b);
            } else if (value instanceof BigDecimal d) {
                statement.setBigDecimal(index, d);
            } else if (value instanceof Double d) {
                statement.setDouble(index, d);
            } else if (value instanceof Float f) {
                statement.setDouble(index, f);
            } else if (value instanceof LocalDate || value instanceof LocalTime || value instanceof LocalDateTime
                    || value instanceof java.time.OffsetDateTime || value instanceof java.util.UUID) {
                statement.setObject(index, value);
            } else if (value instanceof java.time.Instant instant) {
                statement.setObject(index, instant.atOffset(java.time.ZoneOffset.UTC));
            } else if (value instanceof byte[] bytes) {
                statement.setBytes(index, bytes);
            } else {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER,
                        "Parameter " + index + " has an unsupported type.");
            }
        }
    }
}
