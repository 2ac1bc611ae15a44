package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

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
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The Trino validator: pre-checks the raw text ({@link SqlPrecheck}), parses it with JSqlParser on the
 * caller's thread, checks and renders the one SELECT ({@link SelectRenderer}) while recording its
 * facts, lets the domain's policy decide on them, and then asks the cluster how it reads the rendered
 * text ({@code EXPLAIN (TYPE LOGICAL, FORMAT JSON)} and {@code EXPLAIN (TYPE IO, FORMAT JSON)}, which
 * analyse and plan but run nothing): a table or column the cluster reads that the checked tree does
 * not, or a plan this class cannot read fully, refuses the statement. Outcomes, refusals included,
 * are cached by SQL text; parameters are bound per call.
 */
public final class TrinoValidator implements StatementValidator {
    private static final Logger LOG = Logger.getLogger(TrinoValidator.class.getName());
    private static final int CACHE_SIZE = 512;

    /** Opens a connection for EXPLAIN. */
    @FunctionalInterface
    public interface Connections {
        Connection open() throws SQLException;
    }

    private final String sourceId;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Set<String> functions;
    private final Connections explain;
    private final Map<TableRef, List<String>> physical = new LinkedHashMap<>();
    private final PlanCache<Outcome> cache = new PlanCache<>(CACHE_SIZE);

    private record Outcome(QueryPlan plan, GuardException error) {
    }

    /**
     * @param explain connections for EXPLAIN, or null to skip the cluster's reading (unit tests only)
     */
    public TrinoValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Connections explain) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null");
        this.functions = policy.functionsOr(FunctionCatalog.defaults());
        this.explain = explain;
        if (!policy.tables().restricted()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "' needs a table allowlist.");
        }
        schema.tables().forEach((ref, info) -> physical.put(ref, info.columns().stream().map(SchemaSnapshot.ColumnInfo::name).toList()));
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        Outcome outcome = cache.get(request.sql(), this::compute);
        if (outcome.error() != null) {
            throw new GuardException(outcome.error().code(), outcome.error().safeMessage(), outcome.error().getCause());
        }
        return outcome.plan().withParameters(request.params());
    }

    private Outcome compute(String sql) {
        try {
            return new Outcome(plan(sql), null);
        } catch (GuardException e) {
            return new Outcome(null, e);
        } catch (StackOverflowError e) {
            return new Outcome(null, new GuardException(ErrorCode.QUERY_TOO_COMPLEX));
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "validator failed on an input", e);
            return new Outcome(null, new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be checked.", e));
        }
    }

    /** The checked plan for {@code sql}, with null parameters; the cluster's reading is cross-checked when connections are set. */
    QueryPlan plan(String sql) {
        SqlPrecheck.check(sql, policy.limits().maxSqlLength());
        net.sf.jsqlparser.statement.Statement statement = parseOne(sql);
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
        String text = withNullParameters(plan.executableSql());
        String logical = explain("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + text);
        String io = explain("EXPLAIN (TYPE IO, FORMAT JSON) " + text);
        ExplainCheck.Reading reading = ExplainCheck.read(logical, io, schema.catalog(), physical);
        if (!reading.complete()) {
            throw dispute();
        }
        for (TableRef t : reading.tables()) {
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

    private String explain(String sql) {
        try (Connection c = explain.open(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new GuardException(ErrorCode.INTERNAL_ERROR, "The database returned no plan.");
            }
            return rs.getString(1);
        } catch (SQLException e) {
            LOG.log(Level.FINE, "EXPLAIN failed", e);
            throw SqlErrors.map(e);
        }
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

    private static GuardException dispute() {
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The database reads this query differently from the check; rewrite it more plainly.");
    }

    /** Parses on this thread: the fast grammar first, then the complex one, as parseStatements does. */
    static net.sf.jsqlparser.statement.Statement parseOne(String sql) {
        Statements statements;
        try {
            statements = parse(sql, false);
        } catch (ParseException | TokenMgrException first) {
            try {
                statements = parse(sql, true);
            } catch (ParseException | TokenMgrException e) {
                throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be parsed as a Trino SELECT.");
            }
        }
        List<net.sf.jsqlparser.statement.Statement> list = statements == null ? List.of() : statements;
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
