package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.Set;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

/**
 * An engine made of its parts: it answers with its {@link EngineParts} and, when it closes, closes
 * its {@link EngineResources} (the last opened first, each once, never throwing). An adapter's
 * {@code create} ends with {@code return new ComposedEngine(parts, resources)}; it needs no engine
 * class of its own. Extend it only to add methods of your own (the DuckDB engine adds the settings
 * in force, for its tests): what the host calls is final here. Closing twice closes nothing more.
 */
public class ComposedEngine implements Engine {
    private final EngineParts parts;
    private final EngineResources resources;
    /** The last binding built, for the configured policy it was built for: the host asks on every call. */
    private volatile Bound bound;

    private record Bound(GuardrailPolicy configured, SourceBinding binding) {
    }

    public ComposedEngine(EngineParts parts, EngineResources resources) {
        this.parts = requireNonNull(parts, "parts is null");
        this.resources = requireNonNull(resources, "resources is null");
    }

    @Override
    public final String sourceId() {
        return parts.sourceId();
    }

    @Override
    public final GuardrailPolicy policy() {
        return parts.policy();
    }

    @Override
    public final EngineDefaults defaults() {
        return parts.defaults();
    }

    @Override
    public final FunctionFacts functionFacts(Set<String> functions, Set<String> tableFunctions) {
        return parts.functionLookup().lookUp(Set.copyOf(functions), Set.copyOf(tableFunctions));
    }

    @Override
    public final StatementValidator validator() {
        return parts.validator();
    }

    @Override
    public final ExecutionPort execution() {
        return parts.execution();
    }

    @Override
    public final CatalogView catalog() {
        return parts.catalog();
    }

    @Override
    public final Set<EngineCapability> capabilities() {
        return parts.capabilities();
    }

    /**
     * {@link Engine#binding(GuardrailPolicy)}, built once per configured policy (compared by identity): the
     * domain's {@link GuardrailPolicy#effective} copies the allowlist, which is not a cost for every call.
     */
    @Override
    public final SourceBinding binding(GuardrailPolicy configured) {
        Bound last = bound;
        if (last != null && last.configured() == configured) {
            return last.binding();
        }
        SourceBinding binding = Engine.super.binding(configured);
        bound = new Bound(configured, binding);
        return binding;
    }

    @Override
    public final void close() {
        resources.close();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + parts.sourceId() + "]";
    }
}
