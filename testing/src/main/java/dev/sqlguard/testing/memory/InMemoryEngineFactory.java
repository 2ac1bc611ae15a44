package dev.sqlguard.testing.memory;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.sqlguard.ports.AbstractEngineFactory;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.PropertySpec;

/**
 * The factory of {@link InMemoryEngine}s over fixed tables, named {@code memory}. It is registered
 * in no {@code META-INF/services} file: plug it in with {@code SqlGuard.builder().engine(factory)},
 * or build engines with {@link #create} in a test.
 */
public final class InMemoryEngineFactory extends AbstractEngineFactory {
    public static final String NAME = "memory";

    /** The one setting: a statement the engine treats as a scan that never ends, for timeout tests. */
    public static final PropertySpec RUNAWAY_QUERY = PropertySpec.optional("runawayQuery",
            "A statement that this engine runs as a scan that never ends, until the call's timeout or a cancel stops it.");

    /** A tiny dialect: plain names only, one table per query. */
    public static final EngineDialect DIALECT = new EngineDialect("in-memory", Optional.empty(), Optional.empty(), List.of(
            "One table per query: no joins, GROUP BY, subqueries, CTEs, set operations or *.",
            "Functions: count, sum, avg, min, max, upper, lower, length, coalesce, concat, round."));

    private final Map<String, InMemoryTable> tables;

    /** A factory whose engines serve {@code tables} (by name). */
    public InMemoryEngineFactory(Map<String, InMemoryTable> tables) {
        super(NAME, List.of(RUNAWAY_QUERY), DIALECT);
        this.tables = Map.copyOf(requireNonNull(tables, "tables is null"));
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(properties());
        Optional<String> runaway = config.property(RUNAWAY_QUERY.name());
        return new InMemoryEngine(config.sourceId(), config.policy(), tables, sql -> runaway.filter(sql::equals).isPresent());
    }
}
