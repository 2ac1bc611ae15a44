package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/**
 * What an {@link Engine} answers with, as one immutable value: the source it serves, the policy its
 * validator analyzes with, its validator, its execution port, its catalog, its capabilities and the
 * defaults it reports ({@link Engine#defaults()}). An adapter builds these in {@link EngineFactory#create} and hands them, with what
 * it holds open ({@link EngineResources}), to a {@link ComposedEngine}; it writes no engine class.
 *
 * @param policy the configured policy with {@code defaults} filled in ({@code config.policy().effective(defaults)})
 * @param capabilities kept in the enum's order
 * @param defaults what the engine reports for the host to fill into the configured policy
 * @param functionLookup how the engine answers {@link Engine#functionFacts} (facts only; the host decides)
 * @throws GuardException {@code CONFIGURATION_ERROR} when the policy has row filters or masks and the
 *     capabilities lack {@link EngineCapability#ROW_POLICIES}
 */
public record EngineParts(String sourceId, GuardrailPolicy policy, StatementValidator validator, ExecutionPort execution,
                          CatalogView catalog, Set<EngineCapability> capabilities, EngineDefaults defaults,
                          FunctionLookup functionLookup) {
    /**
     * Parts of an engine that cannot look its functions up: every configured name is known to it
     * ({@link FunctionLookup#allKnown}); its never-list still applies.
     */
    public EngineParts(String sourceId, GuardrailPolicy policy, StatementValidator validator, ExecutionPort execution,
                       CatalogView catalog, Set<EngineCapability> capabilities, EngineDefaults defaults) {
        this(sourceId, policy, validator, execution, catalog, capabilities, defaults, FunctionLookup.allKnown("this engine"));
    }

    /** Parts of an engine that reports no defaults ({@link EngineDefaults#none()}). */
    public EngineParts(String sourceId, GuardrailPolicy policy, StatementValidator validator, ExecutionPort execution,
                       CatalogView catalog, Set<EngineCapability> capabilities) {
        this(sourceId, policy, validator, execution, catalog, capabilities, EngineDefaults.none());
    }

    public EngineParts {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(validator, "validator is null");
        requireNonNull(execution, "execution is null");
        requireNonNull(catalog, "catalog is null");
        EnumSet<EngineCapability> ordered = EnumSet.noneOf(EngineCapability.class);
        ordered.addAll(requireNonNull(capabilities, "capabilities is null"));
        capabilities = Collections.unmodifiableSet(ordered);
        requireNonNull(defaults, "defaults is null");
        requireNonNull(functionLookup, "functionLookup is null");
        if (!policy.rows().isEmpty() && !capabilities.contains(EngineCapability.ROW_POLICIES)) {
            // fail closed: a row filter this engine would not apply is never silently dropped
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "' has row filters or column masks,"
                    + " and its engine cannot apply them; use an engine that can, or remove policy.rows and policy.masks.");
        }
    }
}
