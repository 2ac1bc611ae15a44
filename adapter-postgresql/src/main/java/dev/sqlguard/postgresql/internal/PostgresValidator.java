package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.sql.DataSource;

import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.jdbc.ansi.AnsiRenderer;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;

/**
 * The PostgreSQL validator: pre-checks the raw text ({@link SqlPrecheck}), parses it with JSqlParser
 * on the caller's thread, checks and renders the one SELECT ({@link AnsiRenderer} with the {@link PostgresDialect}) while recording
 * its facts, lets the domain's policy decide on them, and then asks the server how it reads the
 * rendered text ({@code EXPLAIN (VERBOSE, FORMAT JSON)} on a pinned read-only connection): a base
 * relation or column the server reads that the checked tree does not, or a whole-row read, refuses
 * the statement. Plans are reused by the engine's {@link dev.sqlguard.domain.port.CachingValidator};
 * parameters are bound per call. Thread-safe.
 */
public final class PostgresValidator implements StatementValidator {
    private static final Logger LOG = Logger.getLogger(PostgresValidator.class.getName());

    private final String sourceId;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Set<String> functions;
    private final DataSource explain;

    /**
     * @param explain pinned read-only connections for EXPLAIN, or null to skip the server's reading (unit tests only)
     */
    public PostgresValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, DataSource explain) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.functions = policy.functionsOr(FunctionCatalog.defaults());
        this.explain = explain;
        if (!policy.tables().restricted()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "' needs a table allowlist.");
        }
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        QueryPlan template;
        try {
            template = plan(request.sql());
        } catch (GuardException e) {
            throw e;
        } catch (StackOverflowError e) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "validator failed on an input", e);
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be checked.", e);
        }
        return template.withParameters(request.params());
    }

    /** The checked plan for {@code sql}, with null parameters; the server's reading is cross-checked when a data source is set. */
    QueryPlan plan(String sql) {
        SqlPrecheck.check(sql, policy.limits().maxSqlLength());
        QueryPlan plan = new AnsiRenderer(PostgresDialect.INSTANCE, schema, policy, functions).plan(sourceId, sql);
        if (explain != null) {
            crossCheck(plan);
        }
        return plan;
    }

    private void crossCheck(QueryPlan plan) {
        String json;
        try (Connection c = explain.getConnection();
             PreparedStatement ps = c.prepareStatement("EXPLAIN (VERBOSE, FORMAT JSON) " + plan.executableSql())) {
            for (int i = 1; i <= plan.parameters().size(); i++) {
                ps.setNull(i, java.sql.Types.OTHER);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database returned no plan.");
                }
                json = rs.getString(1);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            LOG.log(Level.FINE, "EXPLAIN failed", e);
            throw SqlErrors.map(e);
        }
        ExplainCheck.Reading reading = ExplainCheck.read(json,
                t -> schema.tables().containsKey(t) ? schema.tables().get(t).columns().stream().map(SchemaSnapshot.ColumnInfo::name).toList() : null);
        if (reading.wholeRow()) {
            throw dispute();
        }
        for (TableRef t : reading.relations()) {
            if (!plan.tables().contains(t)) {
                throw dispute();
            }
        }
        Set<ColumnRef> checked = plan.columns();
        for (ColumnRef c : reading.columns()) {
            if (!checked.contains(c)) {
                throw dispute();
            }
        }
    }

    private static GuardException dispute() {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database reads this query differently from the check; rewrite it more plainly.");
    }
}
