package dev.sqlguard.testing;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.Engine;

/**
 * A fixture and one engine over it, opened together for a test class (an {@link HonestCorpus} run, a
 * fuzz run) and closed together: the engine first, then the fixture, which drops its database.
 *
 * @param <F> the engine module's fixture, for what only it knows (its schema, its server)
 */
public final class FixtureEngine<F extends EngineFixture> implements AutoCloseable {
    /** The columns of {@link ContractDataset}'s tables that hold no secret. */
    public static final Map<String, List<String>> PLAIN_COLUMNS = Map.of(
            "claims", List.of("id", "region", "amount", "status", "created"),
            "regions", List.of("region", "manager"),
            "users", List.of("id", "name"));

    private final F fixture;
    private final Engine engine;

    private FixtureEngine(F fixture, Engine engine) {
        this.fixture = fixture;
        this.engine = engine;
    }

    /**
     * An engine for {@code sourceId} over {@code fixture} with {@code policy}. When the engine cannot
     * be built, the fixture is closed before the failure is rethrown.
     */
    public static <F extends EngineFixture> FixtureEngine<F> open(F fixture, String sourceId, GuardrailPolicy policy) {
        requireNonNull(fixture, "fixture is null");
        Engine engine;
        try {
            engine = fixture.engine(sourceId, policy);
        } catch (RuntimeException | Error e) {
            try {
                fixture.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return new FixtureEngine<>(fixture, engine);
    }

    /**
     * A policy that allowlists {@code tables} (table to columns) and nothing else: no function list
     * (the engine's default), no extra redaction, default limits. For honest queries that compare
     * guarded with raw answers.
     */
    public static GuardrailPolicy plainPolicy(Map<String, List<String>> tables) {
        return new GuardrailPolicy(TableAllowlist.of(tables), Set.of(), Set.of(), Set.of(), Limits.defaults());
    }

    public F fixture() {
        return fixture;
    }

    public Engine engine() {
        return engine;
    }

    /** Closes the engine, then the fixture, even when closing the engine fails. */
    @Override
    public void close() {
        try {
            engine.close();
        } finally {
            fixture.close();
        }
    }
}
