package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;

/**
 * The session every connection is pinned to, and the check that reads it back from the server
 * before every query: read-only transactions by default and in the current transaction, a
 * {@code search_path} with {@code pg_catalog} first, {@code statement_timeout},
 * {@code idle_in_transaction_session_timeout}, {@code work_mem}, {@code temp_file_limit} (when the
 * role may set it), {@code standard_conforming_strings} and {@code jit = off}: LLVM compilation of a
 * large plan ignores both {@code statement_timeout} and {@code pg_cancel_backend} (a 10-branch UNION
 * of joins ran 24.4 s under a 2 s timeout with JIT, 2.6 s without), so a call's time limit holds only
 * with JIT off.
 *
 * @param schema the schema unqualified names resolve to after {@code pg_catalog}
 * @param timeoutMillis the statement time limit
 * @param workMemKb work_mem in kB
 * @param tempFileLimitKb temp_file_limit in kB
 * @param tempFileLimitPinned whether the role may set temp_file_limit (a superuser or GRANT SET ON PARAMETER)
 */
public record SessionPin(String schema, long timeoutMillis, long workMemKb, long tempFileLimitKb, boolean tempFileLimitPinned,
                         Map<String, String> expected) {
    /** The settings read back before every query, as the server formats them once pinned. */
    static final List<String> CHECKED = List.of("default_transaction_read_only", "search_path", "statement_timeout",
            "lock_timeout", "idle_in_transaction_session_timeout", "work_mem", "temp_file_limit", "standard_conforming_strings", "jit");

    /** The backend pid, the read-only flags and the bounds, as the server reports them. */
    private static final String SLOW_CHECK = "SELECT pg_catalog.pg_backend_pid(), pg_catalog.current_setting('transaction_read_only'),"
            + " pg_catalog.current_setting('default_transaction_read_only'), pg_catalog.current_setting('search_path'),"
            + " (SELECT s.setting::bigint FROM pg_catalog.pg_settings s WHERE s.name = 'statement_timeout'),"
            + " (SELECT s.setting::bigint FROM pg_catalog.pg_settings s WHERE s.name = 'idle_in_transaction_session_timeout'),"
            + " (SELECT s.setting::bigint FROM pg_catalog.pg_settings s WHERE s.name = 'work_mem'),"
            + " (SELECT s.setting::bigint FROM pg_catalog.pg_settings s WHERE s.name = 'temp_file_limit'),"
            + " pg_catalog.current_setting('standard_conforming_strings'), pg_catalog.current_setting('jit')";

    public SessionPin {
        requireNonNull(schema, "schema is null");
        expected = Map.copyOf(requireNonNull(expected, "expected is null"));
        if (timeoutMillis < 1 || workMemKb < 64 || tempFileLimitKb < 1) {
            throw new IllegalArgumentException("bad session bounds");
        }
    }

    /** The pin for {@code limits}: work_mem a sixteenth of the memory limit (at least 64 kB), temp files the memory limit. */
    public static SessionPin of(String schema, Limits limits, boolean tempFileLimitPinned) {
        long memoryKb = Math.max(1024, limits.memoryBytes() / 1024);
        return new SessionPin(schema, Math.max(1, limits.timeout().toMillis()), Math.max(64, memoryKb / 16), memoryKb,
                tempFileLimitPinned, Map.of());
    }

    /**
     * Pins {@code c}, checks the pinned values the slow way (pg_settings, in the settings' own
     * units), and returns this pin with the values as {@code current_setting} formats them, which
     * the check before every query then compares exactly (one cheap round trip, no catalog scan).
     */
    public SessionPin capture(Connection c) throws SQLException {
        apply(c);
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(SLOW_CHECK)) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session could not be read back.");
            }
            checkSlow(rs);
        }
        Map<String, String> values = new java.util.LinkedHashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(fastCheck())) {
            rs.next();
            for (int i = 0; i < CHECKED.size(); i++) {
                values.put(CHECKED.get(i), rs.getString(i + 3));
            }
        }
        return new SessionPin(schema, timeoutMillis, workMemKb, tempFileLimitKb, tempFileLimitPinned, values);
    }

    private static String fastCheck() {
        StringBuilder sql = new StringBuilder("SELECT pg_catalog.pg_backend_pid(), pg_catalog.current_setting('transaction_read_only')");
        for (String name : CHECKED) {
            sql.append(", pg_catalog.current_setting('").append(name).append("')");
        }
        return sql.toString();
    }

    /** The statements that pin one connection, run once when the pool opens it. */
    public List<String> statements() {
        List<String> out = new ArrayList<>();
        out.add("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
        out.add("SET default_transaction_read_only = on");
        out.add("SET search_path = pg_catalog, " + PostgresDialect.NAMES.identifier(schema));
        out.add("SET statement_timeout = " + timeoutMillis);
        out.add("SET lock_timeout = " + timeoutMillis);
        out.add("SET idle_in_transaction_session_timeout = " + idleMillis());
        out.add("SET work_mem = '" + workMemKb + "kB'");
        if (tempFileLimitPinned) {
            out.add("SET temp_file_limit = '" + tempFileLimitKb + "kB'");
        }
        out.add("SET standard_conforming_strings = on");
        out.add("SET jit = off");
        return out;
    }

    /**
     * The same settings as server-side session defaults, for the driver's {@code options} startup
     * parameter: they hold from the first statement, and a {@code RESET} returns to them, not to the
     * server's defaults. temp_file_limit is left to {@link #statements()}: a startup option for it
     * needs a superuser.
     */
    public String startupOptions() {
        return "-c default_transaction_read_only=on -c search_path=pg_catalog," + schema + " -c statement_timeout=" + timeoutMillis
                + " -c lock_timeout=" + timeoutMillis + " -c idle_in_transaction_session_timeout=" + idleMillis()
                + " -c work_mem=" + workMemKb + "kB -c standard_conforming_strings=on -c jit=off";
    }

    /** The init SQL for a pool: every statement, one string. */
    public String initSql() {
        return String.join("; ", statements());
    }

    long idleMillis() {
        return timeoutMillis * 2 + 1_000;
    }

    /** Runs {@link #statements()} on {@code c}. */
    public void apply(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements()) {
                s.execute(sql);
            }
        }
    }

    /**
     * Reads the session back from the server, inside the transaction that is about to run a query.
     *
     * @return the backend's pid
     * @throws GuardException READ_ONLY_NOT_ENFORCED when the transaction or the session is not
     *     read-only, CONFIGURATION_ERROR when a bound or the search path is not the pinned one
     */
    public int verify(Connection c) throws SQLException {
        if (expected.isEmpty()) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(SLOW_CHECK)) {
                if (!rs.next()) {
                    throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
                }
                return checkSlow(rs);
            }
        }
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(fastCheck())) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED);
            }
            if (!"on".equals(rs.getString(2))) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database transaction is not read-only, so no query was run.");
            }
            for (int i = 0; i < CHECKED.size(); i++) {
                String name = CHECKED.get(i);
                if (!expected.get(name).equals(rs.getString(i + 3))) {
                    if (name.equals("default_transaction_read_only")) {
                        throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED,
                                "The database session does not default to read-only, so no query was run.");
                    }
                    throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session's " + name
                            + " is not the pinned one, so no query was run.");
                }
            }
            return rs.getInt(1);
        }
    }

    /**
     * A statement that checks, on the server, what {@link #verify} reads back, and fails when any of
     * it is not the pinned value, so that a query sent after it in the same round trip never runs
     * on a session that is not this pin's (the server skips the rest of a pipeline after an error):
     * that the backend is {@code pid}, the transaction read-only, and every setting of
     * {@link #CHECKED} as captured. Empty when no values were captured, or when one cannot be
     * written as a plain literal. See {@link #checkFor(String)}.
     */
    public Optional<String> check(int pid, String marker) {
        return checkFor(marker).map(check -> check.sql(pid));
    }

    /**
     * The session check of {@link #check(int, String)} for any backend, built once: every function
     * and type is {@code pg_catalog}'s, named in full, so no search path can change what the check
     * means; its failure is an invalid-integer error whose text holds {@code marker} (see
     * {@link #isCheckFailure}).
     */
    public Optional<Check> checkFor(String marker) {
        if (expected.isEmpty() || !plain(marker) || !expected.values().stream().allMatch(SessionPin::plain)) {
            return Optional.empty();
        }
        StringBuilder tail = new StringBuilder(") AND pg_catalog.texteq(pg_catalog.current_setting('transaction_read_only'), 'on')");
        for (String name : CHECKED) {
            tail.append(" AND pg_catalog.texteq(pg_catalog.current_setting('").append(name).append("'), '")
                    .append(expected.get(name)).append("')");
        }
        // the failing branch reads the session (a stable function), so the planner cannot fold it into an error at plan time
        tail.append(" THEN 1 ELSE pg_catalog.int4in(pg_catalog.textout(pg_catalog.textcat('").append(marker)
                .append("', pg_catalog.pg_backend_pid()::pg_catalog.text))) END");
        return Optional.of(new Check("SELECT CASE WHEN pg_catalog.int4eq(pg_catalog.pg_backend_pid(), ", tail.toString()));
    }

    /** A session check around the backend pid it expects: {@code head + pid + tail}. */
    public record Check(String head, String tail) {
        public Check {
            requireNonNull(head, "head is null");
            requireNonNull(tail, "tail is null");
        }

        /** The check that the answering backend is {@code pid}. */
        public String sql(int pid) {
            return head + pid + tail;
        }
    }

    /** Whether {@code e} is the failure of {@link #check(int, String)} with {@code marker}. */
    public static boolean isCheckFailure(SQLException e, String marker) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException s && "22P02".equals(s.getSQLState()) && s.getMessage() != null && s.getMessage().contains(marker)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code value} can stand in a standard string literal as it is: printable ASCII, no quote, no backslash. */
    private static boolean plain(String value) {
        return value != null && value.chars().allMatch(c -> c >= 0x20 && c < 0x7f && c != '\'' && c != '\\');
    }

    private int checkSlow(ResultSet rs) throws SQLException {
        {
            if (!"on".equals(rs.getString(2))) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database transaction is not read-only, so no query was run.");
            }
            if (!"on".equals(rs.getString(3))) {
                throw new GuardException(ErrorCode.READ_ONLY_NOT_ENFORCED, "The database session does not default to read-only, so no query was run.");
            }
            String path = rs.getString(4) == null ? "" : rs.getString(4).replace(" ", "").replace("\"", "");
            if (!path.equals("pg_catalog," + schema)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session's search path is not the pinned one, so no query was run.");
            }
            long timeout = rs.getLong(5);
            if (timeout <= 0 || timeout > timeoutMillis) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session has no statement time limit, so no query was run.");
            }
            long idle = rs.getLong(6);
            if (idle <= 0 || idle > idleMillis()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session has no idle transaction limit, so no query was run.");
            }
            if (rs.getLong(7) > workMemKb) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session's work_mem is above the pinned one, so no query was run.");
            }
            long temp = rs.getLong(8);
            if (tempFileLimitPinned && (temp < 0 || temp > tempFileLimitKb)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session's temp_file_limit is not the pinned one, so no query was run.");
            }
            if (!"on".equals(rs.getString(9))) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session reads backslashes in strings, so no query was run.");
            }
            if (!"off".equals(rs.getString(10))) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The database session compiles plans with JIT, which no time limit"
                        + " interrupts, so no query was run.");
            }
            return rs.getInt(1);
        }
    }
}
