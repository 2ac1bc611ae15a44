package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.port.Validation;
import dev.sqlguard.jdbc.AbsentNames;
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.StrictQuotingDialect;
import dev.sqlguard.jdbc.ansi.AnsiCheck;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.jdbc.ansi.EngineReading;
import dev.sqlguard.jdbc.ansi.RowPolicyCheck;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.VisibleTables;

/**
 * The PostgreSQL validator: pre-checks the raw text ({@link StrictQuotingDialect#check}), parses it with JSqlParser
 * on the caller's thread, checks and renders the one SELECT ({@link AnsiCheck}: the {@link AnsiRenderer} with the {@link PostgresDialect}) while recording
 * its facts, lets the domain's policy decide on them, and then asks the server how it reads the
 * rendered text ({@code EXPLAIN (VERBOSE, FORMAT JSON)} on a pinned read-only connection): a base
 * relation or column the server reads that the checked tree does not, or a whole-row read, refuses
 * the statement. Plans are reused by the engine's {@link dev.sqlguard.domain.port.CachingValidator};
 * parameters are bound per call. Thread-safe.
 */
public final class PostgresValidator implements StatementValidator {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresValidator.class);

    private final SchemaSnapshot schema;
    private final DataSource explain;
    private final AnsiCheck check;
    private final GuardrailPolicy policy;
    /** Every known table's columns, in order. */
    private final java.util.Map<dev.sqlguard.domain.TableRef, java.util.List<String>> physical;
    /** The names, lower case, of the columns the allowlist hides. */
    private final java.util.Set<String> hiddenNames = new java.util.HashSet<>();
    /** Each reference to a table that hides a column, as the derived table of its visible columns, in the text as written. */
    private final VisibleTables visibleTables;

    /**
     * @param explain pinned read-only connections for EXPLAIN, or null to skip the server's reading (unit tests only)
     */
    public PostgresValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, DataSource explain) {
        this.schema = requireNonNull(schema, "schema is null");
        this.explain = explain;
        this.policy = requireNonNull(policy, "policy is null");
        this.physical = schema.columnNames();
        java.util.Set<String> visible = new java.util.HashSet<>();
        schema.tables().forEach((table, info) -> info.columns().forEach(c -> {
            String name = c.name().toLowerCase(java.util.Locale.ROOT);
            (policy.tables().allowsColumn(table, c.name()) ? visible : hiddenNames).add(name);
        }));
        // a name that a visible column also has stays as written: the text as written may read that column
        hiddenNames.removeAll(visible);
        this.visibleTables = new VisibleTables(PostgresDialect.INSTANCE, schema, policy);
        this.check = new AnsiCheck(sourceId, PostgresDialect.INSTANCE, schema, policy,
                sql -> StrictQuotingDialect.check(sql, policy.limits().maxSqlLength()), explain == null ? null : this::read);
    }

    /**
     * The start-time check of the policy's row filters and column masks ({@link RowPolicyCheck}): the
     * derived table that every reference to a governed table becomes, planned once by the server
     * ({@code EXPLAIN}, which analyses without running) with each attribute an untyped NULL, as a call
     * binds its text (the driver sends strings untyped).
     *
     * @throws GuardException CONFIGURATION_ERROR naming the first table whose filter or mask fails
     */
    public static void checkRowPolicy(Connection c, String sourceId, SchemaSnapshot schema, GuardrailPolicy policy) throws SQLException {
        if (policy.rows().isEmpty()) {
            return;
        }
        RowPolicyCheck.check(sourceId, schema, policy, PostgresDialect.INSTANCE, attribute -> "?", (sql, placeholders) -> {
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN (COSTS OFF) " + sql)) {
                for (int i = 1; i <= placeholders; i++) {
                    ps.setNull(i, java.sql.Types.OTHER);
                }
                ps.executeQuery().close();
            }
        });
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        return Validation.checked(request.sql(), sql -> confirmFiltered(check.plan(sql, request.params().size())))
                .withParameters(request.params());
    }

    /** The policy's decision runs once, between the renderer's facts and PostgreSQL's reading of the text. */
    @Override
    public QueryPlan validate(QueryRequest request, java.util.function.Consumer<QueryPlan> decision) {
        return Validation.checked(request.sql(), sql -> confirmFiltered(check.plan(sql, request.params().size(), decision)))
                .withParameters(request.params());
    }

    /**
     * The last step for a plan whose text binds the caller's attributes (it reads a filtered table): the
     * server's own generic plan of that text ({@code PREPARE} under {@code plan_cache_mode =
     * force_generic_plan}, then {@code EXPLAIN (VERBOSE, FORMAT JSON) EXECUTE} with NULLs, which plans but
     * runs nothing, the parameters left as {@code $n}) must show every scan of a table whose filter takes
     * an attribute with a condition on one of the attributes' parameters: no scan of it escapes its filter.
     *
     * @throws GuardException CONSTRUCT_NOT_ALLOWED when a scan of a filtered table has no such condition, or when the
     *     text groups by a filtered table's primary key and selects its other columns (PostgreSQL's functional
     *     dependency does not reach through the derived table)
     */
    private QueryPlan confirmFiltered(QueryPlan plan) {
        if (explain == null || !plan.bindings().takesAttributes()) {
            return plan;
        }
        String json;
        try {
            json = genericPlan(plan);
        } catch (SQLException e) {
            LOG.debug("the generic plan of the filtered text failed", e);
            if ("42803".equals(e.getSQLState())) {
                // the unfiltered text planned: a grouping error now comes from the derived table, through which a
                // primary key in GROUP BY no longer vouches for the table's other columns (functional dependency)
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, "This source filters a table's rows per caller, and"
                        + " through that filter a primary key in GROUP BY no longer covers the table's other columns; group by"
                        + " every selected column, or put it inside an aggregate.");
            }
            throw SqlErrors.map(e);
        }
        FilteredScans.require(json, policy.rows(), dev.sqlguard.jdbc.ansi.RowPolicyCheck.attributeSlots(plan.bindings()));
        return plan;
    }

    /** The server's generic plan of the plan's text, on a pinned read-only connection, the prepared statement dropped after. */
    private String genericPlan(QueryPlan plan) throws SQLException {
        Duration limit = plan.limits().timeout();
        String name = "sqlguard_filtered_" + java.util.UUID.randomUUID().toString().replace("-", "");
        int placeholders = plan.bindings().size();
        try (Connection c = CallConnection.open(ms -> Checkout.within(explain, ms), limit);
             java.sql.Statement s = c.createStatement()) {
            CallConnection.bound(c, limit);
            boolean prepared = false;
            try {
                s.execute("SET LOCAL plan_cache_mode = force_generic_plan");
                s.execute("PREPARE " + name + " AS " + FilteredScans.numbered(plan.executableSql()));
                prepared = true;
                String nulls = String.join(", ", java.util.Collections.nCopies(placeholders, "NULL"));
                try (ResultSet rs = s.executeQuery("EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) EXECUTE " + name
                        + (placeholders == 0 ? "" : "(" + nulls + ")"))) {
                    return EngineReading.planText(rs);
                }
            } finally {
                c.rollback();
                if (prepared) {
                    s.execute("DEALLOCATE " + name); // a prepared statement outlives the transaction
                    c.rollback();
                }
            }
        }
    }

    /** The checked plan for {@code sql}, with null parameters; the server's reading is cross-checked when a data source is set. */
    QueryPlan plan(String sql) {
        return check.plan(sql);
    }

    private static PreparedStatement prepareBounded(Connection c, String sql, Duration limit) throws SQLException {
        CallConnection.bound(c, limit);
        return c.prepareStatement(sql);
    }

    /**
     * The base relations and columns the server reads for the plan's text, after the server's reading
     * of the text as written has been compared with its reading of the rendered text
     * ({@link ReadingComparison}).
     */
    private EngineReading read(QueryPlan plan) {
        String json;
        try {
            json = explain(plan.executableSql(), plan);
        } catch (SQLException e) {
            LOG.debug("EXPLAIN failed", e);
            // decided on the rendered text alone, which names no hidden column: the same for a hidden name and a missing one
            throw ReadingComparison.renderedFailed(e, SqlErrors.map(e));
        }
        EngineReading reading = ExplainCheck.read(json, this::physical);
        // where row-level security enforces the row policy too, the server also reads the filter's columns
        reading.requireWithin(plan, RowPolicyCheck.policyColumns(policy, schema, plan.tables()));
        // the text as written over the visible columns only: each reference to a table that hides a column is the
        // derived table of its visible columns under the same name, so the server reads every clause (a name another
        // table shows too, NATURAL, USING, a star, a subquery) as the check does, for which hidden columns do not
        // exist. Over the visible columns no name needs renaming (renaming would make an alias without AS named like a
        // keyword that is no bare label, `ts::date second`, plannable where the missing column's text is a syntax
        // error); where the splice does not line up, and in the fallbacks below, the text over the tables themselves is
        // read with the names only hidden columns have made absent
        String spliced = visibleTables.splice(plan.originalSql());
        String unspliced = AbsentNames.rename(plan.originalSql(), hiddenNames, PostgresDialect.RESERVED);
        String written = spliced.equals(plan.originalSql()) ? unspliced : spliced;
        boolean compared = plan.parameters().isEmpty();
        String asWritten = ReadingComparison.asWritten(written, sql -> {
            try {
                return explain(sql, plan);
            } catch (SQLException e) {
                if (!"42803".equals(e.getSQLState()) || sql.equals(unspliced)) {
                    throw e;
                }
                // a primary key in GROUP BY vouches for its table's other columns, not through a derived table
                // (functional dependency): such a text is planned over the tables themselves, as before the splice
                LOG.debug("EXPLAIN of the text as written over the visible columns failed to group", e);
                return explain(unspliced, plan);
            }
        }, compared);
        if (asWritten != null && compared) {
            try {
                ReadingComparison.compare(plan, asWritten, json, policy, this::physical, sql -> explain(sql, plan));
            } catch (GuardException differs) {
                if (written.equals(unspliced)) {
                    throw differs;
                }
                // PlanShape's reductions do not cover every form a merged USING/NATURAL column or a pulled-up constant
                // takes over the derived tables: the server's reading of the text over the tables themselves, compared
                // as before the splice, may still vouch for the rendered one
                String plain;
                try {
                    plain = explain(unspliced, plan);
                } catch (SQLException e) {
                    LOG.debug("EXPLAIN of the text as written over the tables failed", e);
                    throw differs;
                }
                ReadingComparison.compare(plan, plain, json, policy, this::physical, sql -> explain(sql, plan));
            }
        }
        return reading;
    }

    /** Every column of a table, in order, or null when the table is not in the snapshot. */
    private java.util.List<String> physical(dev.sqlguard.domain.TableRef t) {
        return physical.get(t);
    }

    /**
     * {@code EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON)} of {@code sql}, every parameter NULL, on a pinned
     * read-only connection; the call's deadline bounds the checkout and the round trip.
     */
    private String explain(String sql, QueryPlan plan) throws SQLException {
        Duration limit = plan.limits().timeout();
        try (Connection c = CallConnection.open(ms -> Checkout.within(explain, ms), limit);
             PreparedStatement ps = prepareBounded(c, "EXPLAIN (VERBOSE, COSTS OFF, FORMAT JSON) " + sql, limit)) {
            for (int i = 1; i <= plan.parameters().size(); i++) {
                ps.setNull(i, java.sql.Types.OTHER);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return EngineReading.planText(rs);
            } finally {
                c.rollback();
            }
        }
    }
}
