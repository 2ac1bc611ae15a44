package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.sql.DataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;

/**
 * Runs rendered plans on pinned, server-side read-only connections. Before every query it asks the
 * server (not the driver) whether the session is read-only, in the pinned sql_mode and under the
 * time limit, and refuses to run otherwise. Results stream ({@code fetchSize = Integer.MIN_VALUE});
 * a query that is cut, cancelled or times out is killed from a control connection before its
 * result is closed, because closing a streamed result would drain it. Thread-safe.
 */
public final class MySqlExecutor implements ExecutionPort {
    private static final Logger LOG = Logger.getLogger(MySqlExecutor.class.getName());

    private final DataSource queries;
    private final DataSource control;
    private final ServerFlavor flavor;
    private final ServerFlavor.Pins pins;
    private final ScheduledExecutorService watchdog;
    private final AtomicLong killsSent = new AtomicLong();
    private final Set<String> pinnedMode;

    /**
     * @param queries connections pinned with {@link ServerFlavor#pinSql(ServerFlavor.Pins)}
     * @param control connections for {@code KILL QUERY}
     * @param pins what every query connection was pinned to
     * @param watchdog runs the kill at each query's deadline
     */
    public MySqlExecutor(DataSource queries, DataSource control, ServerFlavor flavor, ServerFlavor.Pins pins,
                         ScheduledExecutorService watchdog) {
        this.queries = requireNonNull(queries, "queries is null");
        this.control = requireNonNull(control, "control is null");
        this.flavor = requireNonNull(flavor, "flavor is null");
        this.pins = requireNonNull(pins, "pins is null");
        this.pinnedMode = pins.modeSet();
        this.watchdog = requireNonNull(watchdog, "watchdog is null");
    }

    @Override
    public ResultCursor execute(QueryPlan plan) {
        long deadline = System.nanoTime() + plan.limits().timeout().toNanos();
        Connection connection;
        try {
            connection = queries.getConnection();
        } catch (SQLException e) {
            LOG.log(Level.FINE, "pool checkout failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.ENGINE_UNAVAILABLE.defaultMessage(), e);
        }
        PreparedStatement statement = null;
        try {
            long connectionId = verifySession(connection);
            statement = connection.prepareStatement(plan.executableSql(), ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(Integer.MIN_VALUE);
            statement.setQueryTimeout((int) Math.max(1, (plan.limits().timeout().toMillis() + 999) / 1000));
            bind(statement, plan.parameters());
            MySqlCursor cursor = new MySqlCursor(connection, statement, connectionId, control, deadline, plan, killsSent);
            cursor.start(watchdog);
            return cursor;
        } catch (GuardException e) {
            closeQuietly(statement);
            closeQuietly(connection);
            throw e;
        } catch (SQLException e) {
            LOG.log(Level.FINE, "query failed to start", e);
            closeQuietly(statement);
            closeQuietly(connection);
            throw SqlErrors.map(e);
        }
    }

    /** How many {@code KILL QUERY} statements the server accepted for this source (a metric, and proof in tests). */
    public long killsSent() {
        return killsSent.get();
    }

    /** The startup check of one pooled connection: the same as before every query. */
    public void verifySessionForStartup(Connection connection) throws SQLException {
        verifySession(connection);
    }

    /** Checks the server's own view of the session; returns its connection id. */
    long verifySession(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(flavor.checkSql())) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
            }
            if (rs.getLong(1) != 1) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
            }
            if (!ServerFlavor.modes(rs.getString(2)).equals(pinnedMode)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session is not in the pinned SQL mode, so no query was run.");
            }
            BigDecimal timeout = rs.getBigDecimal(3);
            BigDecimal pinned = new BigDecimal(flavor.timeoutValue(pins.timeoutMillis()));
            if (timeout == null || timeout.signum() <= 0 || timeout.compareTo(pinned) > 0) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session has no statement time limit, so no query was run.");
            }
            if (rs.getLong(5) > pins.groupConcatMaxLen() || rs.getLong(6) > pins.recursionLimit()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session is not under the pinned limits, so no query was run.");
            }
            return rs.getLong(4);
        }
    }

    private static void bind(PreparedStatement statement, List<Object> parameters) throws SQLException {
        for (int i = 0; i < parameters.size(); i++) {
            Object v = parameters.get(i);
            int index = i + 1;
            if (v == null) {
                statement.setNull(index, java.sql.Types.NULL);
            } else if (v instanceof String s) {
                statement.setString(index, s);
            } else if (v instanceof Boolean b) {
                statement.setBoolean(index, b);
            } else if (v instanceof Long l) {
                statement.setLong(index, l);
            } else if (v instanceof BigInteger b) {
                statement.setBigDecimal(index, new BigDecimal(b));
            } else if (v instanceof BigDecimal b) {
                statement.setBigDecimal(index, b);
            } else if (v instanceof Double d) {
                statement.setDouble(index, d);
            } else if (v instanceof LocalDate d) {
                statement.setObject(index, d);
            } else if (v instanceof LocalTime t) {
                statement.setObject(index, t);
            } else if (v instanceof LocalDateTime t) {
                statement.setObject(index, t);
            } else {
                throw new GuardException(ErrorCode.UNSUPPORTED_PARAMETER, "Parameter " + index + " has an unsupported type.");
            }
        }
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "close failed", e);
        }
    }
}
