package dev.sqlguard.postgresql.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
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
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.TokenMgrException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The PostgreSQL validator: pre-checks the raw text ({@link SqlPrecheck}), parses it with JSqlParser
 * on the caller's thread, checks and renders the one SELECT ({@link SelectRenderer}) while recording
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
        Statement statement = parseOne(sql);
        if (!(statement instanceof Select select)) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        SelectRenderer.Rendered r = new SelectRenderer(schema, policy, functions).render(select);
        QueryPlan plan = new QueryPlan(sourceId, sql, r.sql(), Collections.nCopies(r.parameterCount(), null), r.tables(),
                r.uses(), r.functions(), r.outputs(), r.amplifications(), policy.limits());
        policy.authorize(plan);
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

    /** Parses on this thread: the fast grammar first, then the complex one, as parseStatements does. */
    static Statement parseOne(String sql) {
        Statements statements;
        try {
            statements = parse(sql, false);
        } catch (ParseException | TokenMgrException first) {
            try {
                statements = parse(sql, true);
            } catch (ParseException | TokenMgrException e) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed as a PostgreSQL SELECT.");
            }
        }
        List<Statement> list = statements == null ? List.of() : statements;
        if (list.isEmpty()) {
            throw new GuardException(ErrorCode.EMPTY_QUERY);
        }
        if (list.size() > 1) {
            throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
        }
        return list.get(0);
    }

    private static Statements parse(String sql, boolean complex) throws ParseException {
        CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(complex);
        return parser.Statements();
    }
}
