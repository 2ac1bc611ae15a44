package dev.sqlguard.jdbc.ansi;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import dev.sqlguard.domain.CostClass;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.jdbc.ansi.RenderScope.Recursion;

/**
 * What one rendering shares: the dialect, the catalog, the policy, the facts, the recursive term being rendered,
 * and the parts of the renderer, each one concern; plus the function decision every call goes through.
 * Not thread-safe: one per {@link AnsiRenderer}.
 */
final class RenderContext {
    final AnsiDialect dialect;
    final AnsiDialect.Lexicon lexicon;
    final AnsiNames naming;
    final FunctionRules rules;
    final SchemaSnapshot schema;
    final GuardrailPolicy policy;
    final RenderFacts facts = new RenderFacts();
    /** The recursive common table expression whose recursive term is being rendered, if any. */
    Recursion recursion;

    final QueryRenderer queries;
    final WithClauses withs;
    final RelationRenderer relations;
    final AnsiExpressions expressions;
    final RenderScope names;
    final Amplifications amplifications;
    final AnsiLiterals literals;

    /** See {@link AnsiRenderer#AnsiRenderer}. */
    RenderContext(AnsiDialect dialect, SchemaSnapshot schema, GuardrailPolicy policy) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.lexicon = requireNonNull(dialect.lexicon(), "lexicon is null");
        this.naming = lexicon.names();
        this.rules = lexicon.functions();
        this.schema = requireNonNull(schema, "schema is null");
        this.policy = requireNonNull(policy, "policy is null").orEngineFunctions(rules.functionClasses());
        this.queries = new QueryRenderer(this);
        this.withs = new WithClauses(this);
        this.relations = new RelationRenderer(this);
        this.expressions = new AnsiExpressions(this);
        this.names = new RenderScope(this);
        this.amplifications = new Amplifications(this);
        this.literals = new AnsiLiterals(this);
    }

    /**
     * A call of {@code name}: a function this engine does not have is refused naming its nearest; the
     * policy decides on the others ({@link GuardrailPolicy#requireFunction}), before the engine sees the
     * text; one the policy allows and the catalog cannot classify gets the policy's own refusal. Records it.
     */
    CostClass allow(String name) {
        if (!policy.engineFunctions().isNever(name)) {
            Optional<GuardException> absent = rules.absentRefusal(name);
            if (absent.isPresent()) {
                throw absent.get();
            }
        }
        policy.requireFunction(name);
        CostClass cost = rules.costClass(name).orElseThrow(() -> policy.functionRefusal(name));
        facts.functions.add(name);
        return cost;
    }

    /** A function's name as rendered: in the dialect's function schema, unless written as a keyword. */
    String qualified(String name) {
        return lexicon.functionSchema().filter(schema -> !rules.syntax().contains(name)).map(schema -> schema + "." + name).orElse(name);
    }

    /** Whether a function name's qualifier names the dialect's function schema. */
    boolean inFunctionSchema(String rawQualifier) {
        return lexicon.functionSchema().isPresent() && naming.name(rawQualifier).equals(lexicon.functionSchema().get());
    }
}
