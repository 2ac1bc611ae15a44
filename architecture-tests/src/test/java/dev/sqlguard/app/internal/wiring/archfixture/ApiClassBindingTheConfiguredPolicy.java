package dev.sqlguard.app.internal.wiring.archfixture;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.ports.Engine;

/** Good: the host binds the configured policy, with the engine's reported defaults filled in by the domain. */
public final class ApiClassBindingTheConfiguredPolicy {
    public SourceBinding binding(Engine engine, GuardrailPolicy configured) {
        return engine.binding(configured);
    }
}
