package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ScheduledExecutorService;

import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.JdbcParameters;
import dev.sqlguard.jdbc.PreparedQuery;

/**
 * Runs rendered plans on Trino. Every query gets a connection of its own (a Trino JDBC connection
 * is an HTTP client state, not a server session: nothing one query does can reach the next), whose
 * session properties bound it on the cluster ({@code query_max_execution_time},
 * {@code query_max_run_time}, {@code query_max_memory}, from the plan's limits). The cursor streams
 * the result pages; the watchdog, {@code cancel()} and an early close stop the query with
 * {@code Statement.cancel()}, which makes the driver delete the query on the coordinator (Trino 483
 * reports it as FAILED with USER_CANCELED in {@code system.runtime.queries}). The connection comes
 * from {@link BoundedTrinoDriver}, opened on the calling thread, so every HTTP round trip of the
 * query (submission, each poll and page) ends by the call's deadline. Thread-safe.
 */
public final class TrinoExecutor implements ExecutionPort {
    /** Opens a connection whose session carries the given limits. */
    @FunctionalInterface
    public interface Connections {
        Connection open(Limits limits) throws SQLException;
    }

    /**
     * How long the driver retries a request that fails in transport (a refused connect, a reset, an
     * HTTP 502/503 of a coordinator that is starting) before it gives up: Trino's client retries until
     * the connection's network timeout, so with the call's whole time a dead coordinator was reported
     * as the call's timeout (or overran it). Each poll of a running query answers within about a
     * second, so a healthy long query never waits this long for one request.
     */
    public static final long TRANSPORT_RETRY_MILLIS = 3_000;

    private final Connections connections;
    private final ScheduledExecutorService watchdog;

    public TrinoExecutor(Connections connections, ScheduledExecutorService watchdog) {
        this.connections = requireNonNull(connections, "connections is null");
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        long deadline = CallConnection.deadlineNanos(plan.limits().timeout()); // the call's one deadline
        Connection connection = CallConnection.open(() -> connections.open(plan.limits()));
        return PreparedQuery.on(connection, c -> {
                    CallConnection.bound(c, plan.limits().timeout(), TRANSPORT_RETRY_MILLIS);
                    return c.prepareStatement(plan.executableSql());
                }, statement -> JdbcParameters.bind(statement, plan.values(), java.sql.Types.NULL, JdbcParameters.INSTANT_TEMPORALS),
                SqlErrors::map)
                .deadline(deadline, watchdog)
                .expectLabels(plan.outputs().stream().map(OutputColumn::name).toList())
                .start();
    }
}
