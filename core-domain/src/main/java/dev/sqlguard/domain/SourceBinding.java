package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/**
 * What the use case needs of one configured source: its policy, validator and execution port. The
 * policy is the configured one with only the engine's reported defaults filled in
 * ({@link GuardrailPolicy#effective}), never a policy an engine built: {@code Engine.binding(configured)}
 * in the ports, which the host calls.
 */
public record SourceBinding(String id, GuardrailPolicy policy, StatementValidator validator, ExecutionPort execution) {
    public SourceBinding {
        requireNonNull(id, "id is null");
        requireNonNull(policy, "policy is null");
        requireNonNull(validator, "validator is null");
        requireNonNull(execution, "execution is null");
    }
}
