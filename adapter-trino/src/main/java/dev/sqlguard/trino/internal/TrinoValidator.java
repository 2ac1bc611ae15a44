package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
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
import dev.sqlguard.jdbc.CallConnection;
import dev.sqlguard.jdbc.ansi.AnsiCheck;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.jdbc.ansi.EngineReading;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;

/**
 * The Trino validator: pre-checks the raw text ({@link SqlPrecheck}), parses it with JSqlParser on the
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
    private final Connections explain;
    private final AnsiCheck check;
    private final Map<TableRef, List<String>> physical = new LinkedHashMap<>();
    private final PlanCache<Outcome> cache = new PlanCache<>(CACHE_SIZE);
    private final AnsiCheck renderOnly;

    private record Outcome(QueryPlan plan, GuardException error) {
    }

    /**
     * @param explain connections for EXPLAIN, or null to skip the cluster's reading (unit tests only)
     */
    /** Validation errors that say something of the moment the cluster was asked, not of the text. */
    private static final java.util.Set<ErrorCode> MOMENTARY = java.util.EnumSet.of(ErrorCode.EXCEEDED_TIME_LIMIT,
            ErrorCode.EXCEEDED_MEMORY_LIMIT, ErrorCode.ENGINE_UNAVAILABLE, ErrorCode.SERVER_BUSY, ErrorCode.CANCELLED);

    public TrinoValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Connections explain) {
        this.schema = requireNonNull(schema, "schema is null");
        this.explain = explain;
        this.check = new AnsiCheck(sourceId, TrinoDialect.INSTANCE, schema, policy,
                sql -> SqlPrecheck.check(sql, policy.limits().maxSqlLength()), explain == null ? null : this::read);
        this.renderOnly = new AnsiCheck(sourceId, TrinoDialect.INSTANCE, schema, policy,
                sql -> SqlPrecheck.check(sql, policy.limits().maxSqlLength()), null);
        schema.tables().forEach((ref, info) -> physical.put(ref, info.columns().stream().map(SchemaSnapshot.ColumnInfo::name).toList()));
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

    /** The checked plan for {@code sql}, with null parameters; the cluster's reading is cross-checked when connections are set. */
    QueryPlan plan(String sql) {
        return check.plan(sql);
    }

    /** The tables and columns the cluster reads for the plan's text. */
    private EngineReading read(QueryPlan plan) {
        String text = withNullParameters(plan.executableSql());
        // both round trips draw on the call's one deadline (each once had the whole time limit of its own)
        String logical = explain("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + text, plan.limits().timeout());
        String io = explain("EXPLAIN (TYPE IO, FORMAT JSON) " + text, plan.limits().timeout());
        return ExplainCheck.read(logical, io, schema.catalog().orElseThrow(), physical);
    }

    private String explain(String sql, java.time.Duration limit) {
        try (Connection c = explain.open(); Statement s = bounded(c, limit); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database returned no plan.");
            }
            return rs.getString(1);
        } catch (SQLException e) {
            LOG.debug("EXPLAIN failed", e);
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

    /**
     * The rendered text with every {@code ?} marker (outside literals and quoted names) replaced by
     * {@code NULL}: Trino 483 refuses EXPLAIN of a statement with unbound parameters through the driver
     * ("Incorrect number of parameters"), and a NULL of unknown type reads no column.
     */
    static String withNullParameters(String sql) {
        StringBuilder out = new StringBuilder(sql.length() + 16);
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (quote != 0) {
                out.append(c);
                if (c == quote) {
                    quote = 0; // a doubled quote closes and reopens: the same result
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                out.append(c);
            } else if (c == '?') {
                out.append("NULL");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
