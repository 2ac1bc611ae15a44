package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.port.Validation;
import dev.sqlguard.jdbc.AbsentNames;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.SqlQuoting;
import dev.sqlguard.jdbc.StrictQuotingDialect;
import dev.sqlguard.jdbc.ansi.AnsiCheck;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.jdbc.ansi.EngineReading;
import dev.sqlguard.jdbc.ansi.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;

/**
 * The Trino validator: pre-checks the raw text ({@link StrictQuotingDialect#check}), parses it with JSqlParser on the
 * caller's thread, checks and renders the one SELECT ({@link AnsiCheck}: the {@link AnsiRenderer} with the {@link TrinoDialect}) while recording its
 * facts, lets the domain's policy decide on them, and then asks the cluster how it reads the rendered
 * text ({@code EXPLAIN (TYPE LOGICAL, FORMAT JSON)} and {@code EXPLAIN (TYPE IO, FORMAT JSON)}, which
 * analyse and plan but run nothing): a table or column the cluster reads that the checked tree does
 * not, or a plan this class cannot read fully, refuses the statement. Outcomes, refusals included,
 * are cached by SQL text; parameters are bound per call.
 */
public final class TrinoValidator implements StatementValidator {
    private static final Logger LOG = LoggerFactory.getLogger(TrinoValidator.class);
    private static final int CACHE_SIZE = 512;

    /** Opens a connection for EXPLAIN. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Connections explain;
    private final AnsiCheck check;
    private final Map<TableRef, List<String>> physical;
    private final PlanCache<Outcome> cache = new PlanCache<>(CACHE_SIZE);
    private final AnsiCheck renderOnly;
    /** Column names every known table that has them hides from the allowlist (lower case): absent for the check. */
    private final java.util.Set<String> hiddenNames = new java.util.HashSet<>();
    /** Each reference to a table that hides a column, as the derived table of its visible columns, in the text as written. */
    private final dev.sqlguard.jdbc.ansi.VisibleTables visibleTables;

    private record Outcome(QueryPlan plan, GuardException error) {
    }

    /** Runs a statement's EXPLAINs at once, each on a connection of its own; null to ask them one after another. */
    private final java.util.concurrent.Executor explaining;
    /**
     * The cluster's reading of the text as written, asked beside that of the rendered text ({@link #read}) and taken by
     * {@link #requireSameReadingAsWritten} on the same thread once the rendered reading has passed.
     */
    private final ThreadLocal<Explained> asWritten = new ThreadLocal<>();

    /** Validation errors that say something of the moment the cluster was asked, not of the text. */
    private static final java.util.Set<ErrorCode> MOMENTARY = java.util.EnumSet.of(ErrorCode.EXCEEDED_TIME_LIMIT,
            ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.SERVER_BUSY, ErrorCode.CANCELLED);

    /**
     * A validator that asks its EXPLAINs one after another, on the calling thread.
     *
     * @param explain connections for EXPLAIN, or null to skip the cluster's reading (unit tests only)
     */
    public TrinoValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Connections explain) {
        this(sourceId, schema, policy, explain, null);
    }

    /**
     * @param explain connections for EXPLAIN, or null to skip the cluster's reading (unit tests only)
     * @param explaining where a checked statement's four EXPLAINs (the logical and the IO plan of the rendered text and
     *     of the text as written) run at once, so that validation waits for the slowest instead of their sum; null to ask
     *     them one after another on the calling thread, each when its answer is read
     */
    public TrinoValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Connections explain,
                          java.util.concurrent.Executor explaining) {
        this.explaining = explaining;
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.explain = explain;
        this.check = new AnsiCheck(sourceId, TrinoDialect.INSTANCE, schema, policy,
                sql -> StrictQuotingDialect.check(sql, policy.limits().maxSqlLength()), explain == null ? null : this::read);
        this.renderOnly = new AnsiCheck(sourceId, TrinoDialect.INSTANCE, schema, policy,
                sql -> StrictQuotingDialect.check(sql, policy.limits().maxSqlLength()), null);
        this.physical = schema.columnNames();
        java.util.Set<String> visible = new java.util.HashSet<>();
        schema.tables().forEach((ref, info) -> info.columns().forEach(c -> {
            String name = c.name().toLowerCase(java.util.Locale.ROOT);
            (policy.tables().allowsColumn(ref, c.name()) ? visible : hiddenNames).add(name);
        }));
        hiddenNames.removeAll(visible);
        this.visibleTables = new dev.sqlguard.jdbc.ansi.VisibleTables(TrinoDialect.INSTANCE, schema, policy);
    }

    /**
     * The start-time check of the policy's row filters and column masks ({@link RowPolicyCheck}): the
     * derived table that every reference to a governed table becomes, analysed once by the cluster
     * ({@code EXPLAIN (TYPE VALIDATE)}, which runs nothing), each attribute a {@code varchar} NULL, the
     * type the driver binds a call's text as. A failure of the cluster itself (no query error in its
     * answer) is reported as the start failure it is, not as the policy's.
     *
     * @throws GuardException CONFIGURATION_ERROR naming the first table whose filter or mask fails
     */
    public static void checkRowPolicy(Connection c, String sourceId, SchemaSnapshot schema, GuardrailPolicy policy) throws SQLException {
        if (policy.rows().isEmpty()) {
            return;
        }
        RowPolicyCheck.check(sourceId, schema, policy, TrinoDialect.INSTANCE, attribute -> "CAST(NULL AS varchar)", (sql, placeholders) -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN (TYPE VALIDATE) " + sql)) {
                while (rs.next()) {
                    // the one row says the statement is valid
                }
            } catch (SQLException e) {
                if (!SqlErrors.fromServer(e)) {
                    throw new SQLException("the cluster could not be asked", "08000", e);
                }
                throw e;
            }
        });
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        // a failure of the moment (the cluster out of time, down or busy) is not cached: the same text may pass next time
        Outcome outcome = cache.get(request.sql(), this::compute, o -> o.error() == null || !MOMENTARY.contains(o.error().code()));
        if (outcome.error() != null && outcome.error().code() != ErrorCode.PARAMETER_COUNT_MISMATCH && explain != null) {
            // the cluster's reading can fail for the same cause as a wrong count (? + ? has no type
            // without its values): the count comes first, as on every engine (render only, no EXPLAIN)
            Integer placeholders = placeholders(request.sql());
            if (placeholders != null) {
                dev.sqlguard.domain.Parameters.requireCount(placeholders, request.params().size());
            }
        }
        if (outcome.error() != null) {
            throw new GuardException(outcome.error().code(), outcome.error().safeMessage(), outcome.error().getCause());
        }
        return outcome.plan().withParameters(request.params());
    }

    /** How many placeholders {@code sql} has, rendered without the cluster; null when it does not render. */
    private Integer placeholders(String sql) {
        try {
            return renderOnly.plan(sql).parameters().size();
        } catch (RuntimeException | StackOverflowError e) {
            return null;
        }
    }

    private Outcome compute(String sql) {
        try {
            return new Outcome(Validation.checked(sql, this::plan), null);
        } catch (GuardException e) {
            return new Outcome(null, e);
        }
    }

    /**
     * The checked plan for {@code sql}, with null parameters; the cluster's reading is cross-checked when
     * connections are set: of the rendered text, and then of the text as written.
     */
    QueryPlan plan(String sql) {
        try {
            QueryPlan plan = check.plan(sql);
            if (explain != null) {
                requireSameReadingAsWritten(sql, plan);
                requireFilteredScans(plan);
            }
            return plan;
        } finally {
            // a refusal of the rendered reading leaves the reading as written unread: it is stopped, not left to run
            Explained left = asWritten.get();
            asWritten.remove();
            if (left != null) {
                left.abandon();
            }
        }
    }

    /**
     * The cluster's plan of the filtered text must apply each attribute's filter to every scan of its table
     * ({@link FilteredScans}). Caller parameters are explained as NULLs the planner does not fold; where
     * Trino needs a constant in a parameter's place (a LIMIT, say) the text is explained again with plain
     * NULLs for them, which can fold a branch away but never adds a scan.
     */
    private void requireFilteredScans(QueryPlan plan) {
        java.util.Set<Integer> attributes = RowPolicyCheck.attributeSlots(plan.bindings());
        if (attributes.isEmpty()) {
            return;
        }
        String logical;
        try {
            logical = explain("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + SqlQuoting.replacePlaceholders(plan.executableSql(),
                    n -> attributes.contains(n) ? FilteredScans.MARKER : FilteredScans.OPAQUE_NULL), plan.limits().timeout());
        } catch (GuardException e) {
            if (e.code().type() != dev.sqlguard.domain.ErrorType.USER) {
                throw e;
            }
            logical = explain("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + SqlQuoting.replacePlaceholders(plan.executableSql(),
                    n -> attributes.contains(n) ? FilteredScans.MARKER : "NULL"), plan.limits().timeout());
        }
        FilteredScans.require(logical, schema.catalog().orElseThrow(), physical.keySet(), policy.rows());
    }

    /**
     * The cluster's own reading of the text as written (its EXPLAIN, which analyses and plans but runs
     * nothing) must be one the check can stand behind: Trino must accept the text (JSqlParser reads some
     * texts Trino refuses, such as {@code a BETWEEN b AND c = d}), and it must read no table or column
     * the checked plan does not (a name Trino resolves otherwise, for example as an output column, or as
     * a hidden column where the check saw an alias). Either failure refuses with one message, so that a
     * hidden column and a name that exists nowhere are refused alike. Hidden names are absent for this
     * reading too: each name that only hidden columns have is renamed in the text to one that exists
     * nowhere ({@link #withAbsentNames}), so that Trino reads the text as if the hidden columns did not
     * exist (with {@code password} hidden, {@code FROM users u JOIN (SELECT 1 AS password) x ON TRUE
     * GROUP BY password} is ambiguous for Trino as written, and reads {@code x.password} once the hidden
     * column is absent, as the check does). A failure of the cluster itself
     * (unavailable, out of time) is reported as such.
     */
    private void requireSameReadingAsWritten(String sql, QueryPlan plan) {
        Explained explained = asWritten.get();
        asWritten.remove();
        if (explained == null) {
            explained = explainBoth(writtenText(sql), plan);
        }
        EngineReading reading;
        try {
            reading = explained.read(this::readPlans);
        } catch (GuardException e) {
            if (e.code().type() == dev.sqlguard.domain.ErrorType.USER) {
                throw readOtherwise();
            }
            throw e;
        }
        // where Trino's access control enforces the row policy too, the cluster also reads the filters' and masks' columns
        if (!reading.complete() || !plan.tables().containsAll(reading.tables())
                || !reading.within(plan, RowPolicyCheck.policyColumns(policy, schema, plan.tables()))) {
            throw readOtherwise();
        }
    }

    /**
     * The text as written, over the visible columns only: each reference to a table that hides a column is the derived
     * table of its visible columns under the same name (VisibleTables), then the names only hidden columns have made
     * absent.
     */
    private String writtenText(String sql) {
        return withAbsentNames(withNullParameters(visibleTables.splice(sql)), hiddenNames);
    }

    static GuardException readOtherwise() {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database reads this query as written differently from the check;"
                + " write it more plainly: parenthesize each operator, qualify each column with its table, and order or group by"
                + " output positions.");
    }

    /**
     * The tables and columns the cluster reads for the plan's text. The cluster's reading of the text as written is
     * asked at the same time (for {@link #requireSameReadingAsWritten}, which reads its answer on this thread).
     */
    private EngineReading read(QueryPlan plan) {
        Explained rendered = explainBoth(withNullParameters(plan.executableSql()), plan);
        String written;
        try {
            written = writtenText(plan.originalSql());
        } catch (RuntimeException e) {
            written = null; // requireSameReadingAsWritten meets the same failure, after the rendered reading's verdict
        }
        if (written != null) {
            asWritten.set(explainBoth(written, plan));
        }
        return rendered.read(this::readPlans);
    }

    private EngineReading readPlans(String logical, String io) {
        return ExplainCheck.read(logical, io, schema.catalog().orElseThrow(), physical);
    }

    /**
     * {@code EXPLAIN (TYPE LOGICAL, FORMAT JSON)} and {@code EXPLAIN (TYPE IO, FORMAT JSON)} of {@code text}: both started
     * at once on {@link #explaining} where the validator has threads for them, else each asked on this thread when its
     * answer is read. Each round trip draws on the call's one deadline (each once had the whole time limit of its own);
     * a failure is thrown by the accessor that reads the answer.
     */
    private Explained explainBoth(String text, QueryPlan plan) {
        java.time.Duration limit = plan.limits().timeout();
        return new Explained(answer("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + text, limit),
                answer("EXPLAIN (TYPE IO, FORMAT JSON) " + text, limit));
    }

    /**
     * The answer to {@link #explain}, asked on {@link #explaining} under the calling thread's deadline, or on the reading
     * thread when it is read (every thread busy, the engine closing, or no threads); a failure is thrown as the EXPLAIN
     * threw it.
     */
    private Asked answer(String sql, java.time.Duration limit) {
        Asked asked = new Asked(sql, limit, dev.sqlguard.domain.CallDeadline.current());
        if (explaining != null) {
            try {
                explaining.execute(asked.ahead);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // asked on this thread when read, as without threads
            }
        }
        return asked;
    }

    /**
     * One EXPLAIN, asked ahead on the source's threads or when its answer is read. Its answer is read at most once. One
     * that will not be read (the statement was refused on another reading, or the reading thread stopped waiting) is
     * abandoned: not started if it has not started, else its statement is cancelled, which ends the query on the
     * cluster, so that refused statements do not keep the source's threads and the cluster busy with answers no one reads.
     */
    private final class Asked {
        private final String sql;
        private final java.time.Duration limit;
        private final java.util.Optional<dev.sqlguard.domain.CallDeadline> deadline;
        /** The EXPLAIN to hand to a source thread; it asks only if neither the reader nor abandonment claimed it first. */
        private final java.util.concurrent.FutureTask<String> ahead;
        private final java.util.concurrent.atomic.AtomicReference<Statement> running = new java.util.concurrent.atomic.AtomicReference<>();
        /** Set by whichever asks it first: a thread of the source, the reading thread, or abandonment. */
        private final java.util.concurrent.atomic.AtomicBoolean claimed = new java.util.concurrent.atomic.AtomicBoolean();
        private volatile boolean abandoned;

        Asked(String sql, java.time.Duration limit, java.util.Optional<dev.sqlguard.domain.CallDeadline> deadline) {
            this.sql = sql;
            this.limit = limit;
            this.deadline = deadline;
            this.ahead = new java.util.concurrent.FutureTask<>(() -> {
                if (!claimed.compareAndSet(false, true)) {
                    return null; // read or abandoned before a thread took it
                }
                return ask();
            });
        }

        private String ask() {
            if (deadline.isEmpty()) {
                return explain(sql, limit, this::started);
            }
            try (dev.sqlguard.domain.CallDeadline.Scope scope = deadline.get().enter()) {
                return explain(sql, limit, this::started);
            }
        }

        /** Called with the EXPLAIN's statement before it runs; false when the answer was abandoned meanwhile. */
        private boolean started(Statement statement) {
            running.set(statement);
            return !abandoned;
        }

        String get() {
            if (claimed.compareAndSet(false, true)) {
                ahead.cancel(false);
                return ask(); // no thread took it: asked here
            }
            try {
                return ahead.get();
            } catch (InterruptedException e) {
                abandon();
                Thread.currentThread().interrupt();
                throw new GuardException(ErrorCode.CANCELLED, ErrorCode.CANCELLED.defaultMessage(), e);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException r) {
                    throw r;
                }
                if (cause instanceof Error err) {
                    throw err;
                }
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database's reading of the query could not be asked.", cause);
            } catch (java.util.concurrent.CancellationException e) {
                throw new GuardException(ErrorCode.CANCELLED, ErrorCode.CANCELLED.defaultMessage(), e);
            }
        }

        void abandon() {
            abandoned = true;
            claimed.set(true);
            ahead.cancel(false);
            Statement statement = running.get();
            if (statement != null) {
                try {
                    statement.cancel();
                } catch (SQLException | RuntimeException e) {
                    LOG.debug("an abandoned EXPLAIN could not be cancelled", e);
                }
            }
        }
    }

    /** A text's two EXPLAIN answers, its logical plan and its IO plan, read together once; both abandoned if either fails. */
    private record Explained(Asked logical, Asked io) {
        EngineReading read(java.util.function.BiFunction<String, String, EngineReading> reader) {
            try {
                return reader.apply(logical.get(), io.get());
            } catch (RuntimeException | Error e) {
                abandon();
                throw e;
            }
        }

        void abandon() {
            logical.abandon();
            io.abandon();
        }
    }

    private String explain(String sql, java.time.Duration limit) {
        return explain(sql, limit, statement -> true);
    }

    /**
     * The plan text of one EXPLAIN; {@code started} is handed its statement before it runs, and an EXPLAIN it answers
     * false for is not run ({@link ErrorCode#CANCELLED}).
     */
    private String explain(String sql, java.time.Duration limit, java.util.function.Predicate<Statement> started) {
        try (Connection c = explain.open(); Statement s = bounded(c, limit)) {
            if (!started.test(s)) {
                throw new GuardException(ErrorCode.CANCELLED);
            }
            try (ResultSet rs = s.executeQuery(sql)) {
                return EngineReading.planText(rs);
            }
        } catch (SQLException e) {
            LOG.debug("EXPLAIN failed", e);
            if (e.getErrorCode() == SqlErrors.GENERIC_INTERNAL_ERROR && SqlErrors.fromServer(e)) {
                // the coordinator answered, and its planner failed on this text: Trino 483 runs `WHERE 'APPROVED' IN
                // ('x', manager)` but cannot EXPLAIN it ("Literal-to-literal not supported here", differential seed 141);
                // the text's fault, the same on every try, not the cluster's state (which has codes of its own)
                throw new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database could not check how it reads this query;"
                        + " write it more plainly (for example, compare a column with a list of values, not a value with a list"
                        + " holding a column).", e);
            }
            throw SqlErrors.map(e);
        }
    }

    /** A statement whose reads and run end with the call's time (the driver's network and query timeouts). */
    private static Statement bounded(Connection c, java.time.Duration limit) throws SQLException {
        CallConnection.bound(c, limit, TrinoExecutor.TRANSPORT_RETRY_MILLIS);
        Statement s = c.createStatement();
        s.setQueryTimeout((int) Math.max(1, (CallConnection.remainingMillis(limit) + 999) / 1000));
        return s;
    }

    /** {@code sql} with each name that only hidden columns have made absent ({@link AbsentNames}). */
    static String withAbsentNames(String sql, java.util.Set<String> hidden) {
        return AbsentNames.rename(sql, hidden, TrinoDialect.RESERVED);
    }

    /**
     * The rendered text with every {@code ?} marker (outside literals and quoted names) replaced by
     * {@code NULL}: Trino 483 refuses EXPLAIN of a statement with unbound parameters through the driver
     * ("Incorrect number of parameters"), and a NULL of unknown type reads no column.
     */
    static String withNullParameters(String sql) {
        return dev.sqlguard.jdbc.SqlQuoting.replacePlaceholders(sql, n -> "NULL");
    }
}
