package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/**
 * What an {@link Engine} answers with, as one immutable value: the source it serves, the policy in
 * force (the engine's defaults applied), its validator, its execution port, its catalog and its
 * capabilities. An adapter builds these in {@link EngineFactory#create} and hands them, with what
 * it holds open ({@link EngineResources}), to a {@link ComposedEngine}; it writes no engine class.
 *
 * @param capabilities kept in the enum's order
 */
public record EngineParts(String sourceId, GuardrailPolicy policy, StatementValidator validator, ExecutionPort execution,
                          CatalogView catalog, Set<EngineCapability> capabilities) {
    public EngineParts {
        requireNonNull(sourceId, "sourceId is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(validator, "validator is null");
        requireNonNull(execution, "execution is null");
        requireNonNull(catalog, "catalog is null");
        EnumSet<EngineCapability> ordered = EnumSet.noneOf(EngineCapability.class);
        ordered.addAll(requireNonNull(capabilities, "capabilities is null"));
        capabilities = Collections.unmodifiableSet(ordered);
    }
}
