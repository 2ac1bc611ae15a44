package dev.sqlguard.h2.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcParameters;
import dev.sqlguard.jdbc.PreparedQuery;
import dev.sqlguard.jdbc.ansi.SqlStates;

/**
 * Runs checked plans, each on a connection of its own (nothing one call leaves in its session
 * reaches the next), prepared and bound by the kit's {@link PreparedQuery}. The kit's cursor
 * streams the rows and, at the plan's deadline, stops the statement with {@code Statement.cancel()},
 * which H2 checks while it computes. Thread-safe.
 */
public final class H2Executor implements ExecutionPort {
    /** Opens a connection to the read-only database. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    private final Connections connections;
    private final ScheduledExecutorService watchdog;

    public H2Executor(Connections connections, ScheduledExecutorService watchdog) {
        this.connections = requireNonNull(connections, "connections is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        long deadline = System.nanoTime() + plan.limits().timeout().toNanos();
        Connection connection = CallConnection.open(connections::open);
        return PreparedQuery.on(connection, c -> c.prepareStatement(plan.executableSql()),
                        statement -> JdbcParameters.bind(statement, plan.values(), Types.NULL, JdbcParameters.OFFSET_TEMPORALS),
                        H2Executor::map)
                .deadline(deadline, watchdog)
                .expectLabels(plan.outputs().stream().map(OutputColumn::name).toList())
                .start();
    }

    /** H2's errors by their SQLSTATE class, in sqlguard's own sentences. */
    static GuardException map(SQLException e) {
        return SqlStates.byClass(e.getSQLState() == null ? "" : e.getSQLState(), e);
    }
}
