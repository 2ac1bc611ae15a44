package dev.sqlguard.mysql.internal;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.StatementValidator;
import dev.sqlguard.domain.port.Validation;
import dev.sqlguard.jdbc.ansi.OneStatement;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.Select;

/**
 * The MySQL dialect's validator: pre-checks the raw text, parses it with JSqlParser 5.4 on the
 * caller's thread (never the parser's timeout executor, whose timed-out worker keeps running),
 * checks the one SELECT against the allowlists and renders the SQL the server will run. The plan
 * carries the facts the domain decides on (every column use with its position and steps, each
 * output's lineage, amplifying calls); sensitive-value flow is decided by
 * {@link GuardrailPolicy#authorize}, not here. Each output the policy redacts is masked in the
 * rendered SQL, so its values never leave the server ({@link QueryPlan#maskedOutputs()}). A table
 * with a row filter or column masks is read as the derived table of the caller's rows
 * ({@link GovernedTables}), whose attributes the plan's {@link dev.sqlguard.domain.Bindings} bind. Plans are
 * reused by the engine's {@link dev.sqlguard.domain.port.CachingValidator}. Thread-safe.
 */
public final class MySqlValidator implements StatementValidator {
    /** The functions allowed when the policy names none: the whole curated catalogue. */
    public static final Set<String> DEFAULT_FUNCTIONS = MySqlFunctions.defaults();

    private final String sourceId;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Optional<Long> hintMillis;
    private final GovernedTables governed;
    private final ServerReading reading;

    /**
     * @param hintMillis render a MAX_EXECUTION_TIME hint with this value (MySQL), or empty (MariaDB)
     */
    public MySqlValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Optional<Long> hintMillis) {
        this(sourceId, schema, policy, hintMillis, ServerReading.LENIENT);
    }

    /**
     * @param hintMillis render a MAX_EXECUTION_TIME hint with this value (MySQL), or empty (MariaDB)
     * @param reading how the server reads quotes and table names by its own settings
     */
    public MySqlValidator(String sourceId, SchemaSnapshot schema, GuardrailPolicy policy, Optional<Long> hintMillis,
            ServerReading reading) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null").orEngineFunctions(MySqlFunctions.classes(DEFAULT_FUNCTIONS));
        this.hintMillis = requireNonNull(hintMillis, "hintMillis is null");
        this.reading = requireNonNull(reading, "reading is null");
        // row filters and masks: a text the renderer cannot carry fails here, when the engine starts
        this.governed = new GovernedTables(policy.rows(), schema.defaultSchema());
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        return Validation.checked(request.sql(), this::plan).withParameters(request.params());
    }

    private QueryPlan plan(String sql) {
        int maxLength = policy.limits().maxSqlLength();
        // a text over the limit is refused as it is; else "x" is read as the server reads it (a string, or a name
        // under ANSI_QUOTES), which may lengthen the text by the quotes it doubles
        boolean tooLong = sql.length() > maxLength;
        String unquoted = tooLong ? sql : reading.doubleQuotes().rewrite(sql);
        SqlPrecheck.check(unquoted, tooLong ? maxLength : Math.max(maxLength, unquoted.length()));
        // CONVERT(x, type) first: KeywordNames must see the type as a type (AS NCHAR), not a column
        String text = KeywordNames.quote(ConvertCasts.rewrite(unquoted));
        Statement statement;
        try {
            statement = parseOne(text);
        } catch (GuardException refused) {
            // MariaDB's chained comparisons (a = b = c) are read left to right; the parser needs the parentheses
            String chained = ChainedComparisons.parenthesise(text);
            if (refused.code() != ErrorCode.SYNTAX_ERROR || chained.equals(text)) {
                throw refused;
            }
            statement = parseOne(chained);
        }
        if (!(statement instanceof Select select)) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        OperatorCheck.check(select);
        SelectRenderer.Rendered r = new SelectRenderer(schema, policy, governed, hintMillis, reading.exactTableNames()).render(select);
        return new QueryPlan(sourceId, sql, r.sql(), Collections.nCopies(r.bindings().parameterCount(), null), r.tables(),
                r.uses(), r.functions(), r.outputs(), r.amplifications(), policy.limits(), r.masked(), r.bindings(), Map.of());
    }

    /** Parses on this thread: the fast grammar first, then the complex one, as parseStatements does. */
    static Statement parseOne(String sql) {
        return OneStatement.parse(sql, "The SQL could not be parsed as MySQL.");
    }
}
