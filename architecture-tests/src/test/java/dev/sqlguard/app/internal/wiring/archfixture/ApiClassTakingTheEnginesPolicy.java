package dev.sqlguard.app.internal.wiring.archfixture;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.ports.Engine;

/** Deliberately bad: the host enforcing the policy an engine hands back. */
public final class ApiClassTakingTheEnginesPolicy {
    public SourceBinding binding(Engine engine) {
        return engine.binding();
    }

    public GuardrailPolicy policy(Engine engine) {
        return engine.policy();
    }
}
