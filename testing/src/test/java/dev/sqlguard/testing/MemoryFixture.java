package dev.sqlguard.testing;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.testing.memory.ContractTables;
import dev.sqlguard.testing.memory.InMemoryEngineFactory;

/**
 * A {@link PrivateDatabaseFixture} over the in-memory engine for the kit's own tests: it records the
 * configurations and contexts its factory is given, and when an engine and the fixture are closed;
 * {@link #engineFailure} and {@link #fingerprintFailure} make those steps fail.
 */
final class MemoryFixture extends PrivateDatabaseFixture {
    final List<String> events = new ArrayList<>();
    final List<EngineConfig> configs = new ArrayList<>();
    final List<EngineContext> contexts = new ArrayList<>();
    RuntimeException engineFailure;
    Exception fingerprintFailure;

    private final EngineFactory memory = new InMemoryEngineFactory(ContractTables.all());
    private final EngineFactory factory = new EngineFactory() {
        @Override
        public String name() {
            return "recording";
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            configs.add(config);
            contexts.add(context);
            if (engineFailure != null) {
                throw engineFailure;
            }
            return closeRecorded(memory.create(config, context));
        }
    };

    @Override
    public EngineFactory factory() {
        return factory;
    }

    @Override
    protected Map<String, String> properties() {
        return Map.of("runawayQuery", runawayQuery());
    }

    @Override
    protected String readFingerprint() throws Exception {
        if (fingerprintFailure != null) {
            throw fingerprintFailure;
        }
        return "digest";
    }

    @Override
    public String runawayQuery() {
        return claimsCrossJoin(2);
    }

    @Override
    public List<String> dialectForbiddenStatements() {
        return List.of();
    }

    @Override
    public List<String> dialectExternalAccess() {
        return List.of();
    }

    @Override
    public void close() {
        events.add("fixture closed");
    }

    /** {@code engine}, noting in {@link #events} when it is closed. */
    private Engine closeRecorded(Engine engine) {
        return (Engine) Proxy.newProxyInstance(Engine.class.getClassLoader(), new Class<?>[] {Engine.class}, (proxy, method, args) -> {
            if (method.getName().equals("close")) {
                events.add("engine closed");
            }
            try {
                return method.invoke(engine, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }
}
