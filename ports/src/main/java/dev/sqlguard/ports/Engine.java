package dev.sqlguard.ports;

import java.util.Set;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/** One configured source on one engine: its dialect's validator, its execution port and its catalog. */
public interface Engine extends AutoCloseable {
    /** The source id this engine serves. */
    String sourceId();

    /**
     * The policy this engine's own validator analyzes with: the configured one with this engine's
     * {@link #defaults()} filled in ({@link GuardrailPolicy#effective}). The host never enforces it: it
     * computes the policy it enforces from the configuration ({@link #binding(GuardrailPolicy)}), so a
     * policy an engine hands back here cannot widen what the configuration allows.
     */
    GuardrailPolicy policy();

    /**
     * What this engine reports about itself for the host to fill into the configured policy: the schema
     * unqualified names resolve to and its function classes. {@link EngineDefaults#none()} by default:
     * a policy without a function list then allows no function.
     */
    default EngineDefaults defaults() {
        return EngineDefaults.none();
    }

    /**
     * What this engine knows about function names a configuration lists: whether its database has each
     * (with the nearest names it has when not) and whether it has a cost class for each. Facts only: the
     * host decides ({@link EngineStart}, {@link dev.sqlguard.domain.FunctionConfiguration#require}).
     * By default every name is known ({@link FunctionFacts#allKnown}): the engine's never-list still
     * applies, and every call is decided on its own.
     *
     * @throws dev.sqlguard.domain.GuardException ENGINE_UNAVAILABLE when the database cannot be asked
     */
    default FunctionFacts functionFacts(Set<String> functions, Set<String> tableFunctions) {
        return FunctionFacts.allKnown("this engine", functions, tableFunctions);
    }

    StatementValidator validator();

    ExecutionPort execution();

    CatalogView catalog();

    /** What this engine's dialect and validator support; the contract suite reads it. */
    Set<EngineCapability> capabilities();

    /**
     * The binding the domain use case runs calls against, for the {@code configured} policy of this
     * source: that policy with only this engine's {@link #defaults()} filled in, whatever
     * {@link #policy()} says. The host always calls this one.
     */
    default SourceBinding binding(GuardrailPolicy configured) {
        return new SourceBinding(sourceId(), configured.effective(defaults()), validator(), execution());
    }

    /**
     * {@link #binding(GuardrailPolicy)} for this engine's own {@link #policy()}: for tests that hold an
     * engine without its configuration.
     */
    default SourceBinding binding() {
        return binding(policy());
    }

    /** Releases connections and pools. Never throws. */
    @Override
    void close();
}
