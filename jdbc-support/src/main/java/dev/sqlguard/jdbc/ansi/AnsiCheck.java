package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.function.Consumer;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Parameters;
import dev.sqlguard.domain.QueryPlan;

/**
 * One source's check of a statement on an engine that renders through the {@link AnsiRenderer}: the
 * engine's own pre-check of the raw text, then the parse, check and render of the one SELECT with its
 * facts and the policy's decision, then, where the engine can say how it reads the rendered text
 * (its EXPLAIN), the cross-check of that reading against the checked plan ({@link EngineReading}).
 * The policy is the configured one with the engine's defaults filled in
 * ({@link GuardrailPolicy#effective}): its function list defaults to every function the dialect
 * classifies ({@link FunctionRules#functionClasses()}). The factory refuses a source without a table
 * allowlist. Immutable and thread-safe: one renderer per call.
 */
public final class AnsiCheck {
    /** How the engine itself reads the text of a checked plan. */
    @FunctionalInterface
    public interface Reader {
        /** @throws GuardException when the engine could not be asked or its answer could not be read */
        EngineReading read(QueryPlan plan);
    }

    private final String sourceId;
    private final AnsiDialect dialect;
    private final SchemaSnapshot schema;
    private final GuardrailPolicy policy;
    private final Consumer<String> precheck;
    private final Reader reader;
    private final KeywordNames.Words words;

    /**
     * @param precheck the engine's check of the raw text before any parser sees it (length, lexical rules)
     * @param reader the engine's reading of a checked plan, or null to skip the cross-check (unit tests only)
     */
    public AnsiCheck(String sourceId, AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy, Consumer<String> precheck,
                     Reader reader) {
        this.sourceId = requireNonNull(sourceId, "sourceId is null");
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null").orEngineFunctions(dialect.lexicon().functions().functionClasses());
        this.precheck = requireNonNull(precheck, "precheck is null");
        this.reader = reader;
        this.words = KeywordNames.Words.of(dialect, schema, this.policy);
    }

    /**
     * The checked plan for {@code sql}, with null parameters: where it reads a table the policy's row
     * policy governs, with the filtered text ({@link AnsiRenderer#filtered}) once every check has passed.
     *
     * @throws GuardException the first refusal: the pre-check's, the renderer's, the policy's or the cross-check's
     */
    public QueryPlan plan(String sql) {
        return plan(sql, -1);
    }

    /** {@link #plan(String, int, Consumer)} decided on by this check's own policy. */
    public QueryPlan plan(String sql, int values) {
        return plan(sql, values, policy::authorize);
    }

    /**
     * {@link #plan(String)} for a request with {@code values} parameter values: a count that differs
     * from the placeholders is refused as PARAMETER_COUNT_MISMATCH before the engine reads the text,
     * which could fail first for the same cause ({@code ? + ?} has no type without its values).
     *
     * <p>The two phases of {@link dev.sqlguard.domain.port.StatementValidator#validate(dev.sqlguard.domain.QueryRequest,
     * Consumer)}: the renderer reports the facts, {@code decision} decides on them (once), and only then does
     * the engine read the text (an EXPLAIN plans it, and planning may fold constant calls).
     *
     * @param values the number of values, or -1 to leave the count to the caller
     * @param decision the policy's decision on the plan's facts ({@link GuardrailPolicy#authorize})
     */
    public QueryPlan plan(String sql, int values, Consumer<QueryPlan> decision) {
        precheck.accept(sql);
        AnsiRenderer renderer = new AnsiRenderer(dialect, schema, policy, words);
        QueryPlan plan = renderer.plan(sourceId, sql);
        if (values >= 0) {
            Parameters.requireCount(plan.parameters().size(), values);
        }
        decision.accept(plan);
        if (reader != null) {
            reader.read(plan).requireWithin(plan, RowPolicyCheck.policyColumns(policy, schema, plan.tables()));
        }
        // the row policy's filtered text last: the engine's reading above is of the text as checked
        return renderer.filtered(plan);
    }
}
