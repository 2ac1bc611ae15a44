package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import dev.sqlguard.domain.FunctionConfiguration;
import dev.sqlguard.domain.GuardrailPolicy;

/**
 * How the host starts a source's engine: the factory builds it, then the host asks it about the function
 * names the configuration lists ({@link Engine#functionFacts}) and the domain decides whether the
 * configuration may start ({@link FunctionConfiguration#require}). An engine never reads the configured
 * function lists itself. The app and the test fixtures that build engines as the host does start them here.
 */
public final class EngineStart {
    private EngineStart() {
    }

    /**
     * {@link EngineFactory#create}, then the function configuration check; the engine is closed when the
     * check fails.
     *
     * @throws dev.sqlguard.domain.GuardException CONFIGURATION_ERROR for a function list the engine's
     *     facts refuse, or what {@code create} throws
     */
    public static Engine open(EngineFactory factory, EngineConfig config, EngineContext context) {
        Engine engine = requireNonNull(factory.create(config, context), "engine factory returned null");
        try {
            requireFunctionsConfigurable(engine, config.policy());
            return engine;
        } catch (RuntimeException | Error e) {
            engine.close();
            throw e;
        }
    }

    /** The function configuration check for an engine already built, for the {@code configured} policy. */
    public static void requireFunctionsConfigurable(Engine engine, GuardrailPolicy configured) {
        if (configured.functions().isEmpty() && configured.tableFunctions().isEmpty()) {
            return;
        }
        FunctionConfiguration.require(engine.sourceId(), configured, engine.defaults().functions(),
                engine.functionFacts(configured.functions(), configured.tableFunctions()));
    }
}
