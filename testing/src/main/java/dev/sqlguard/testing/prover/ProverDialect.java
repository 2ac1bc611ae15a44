package dev.sqlguard.testing.prover;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the {@link CatalogProver} needs from one engine: the signatures of the catalog's functions,
 * read from the engine itself, and SQL text for values of each argument type.
 */
public interface ProverDialect {
    /**
     * The signatures of {@code functions}, read from the engine's own function list where it has one
     * (PostgreSQL's {@code pg_proc}, DuckDB's {@code duckdb_functions()}, Trino's {@code SHOW FUNCTIONS}),
     * plus the casts the catalog classifies.
     */
    List<Signature> signatures(Connection connection, Set<String> functions) throws SQLException;

    /** Whether the prover can write values of {@code type}; signatures with another type are reported as skipped. */
    boolean supports(String type);

    /**
     * Adversarial values of {@code type}, as SQL expressions of exactly that type: NULL, empty, very
     * long, multi-byte, zero, negative, huge, invalid units, formats, zones and patterns.
     */
    List<String> adversarial(String type);

    /** Ordinary values of {@code type}, tried in order to find one call of a signature that succeeds. */
    List<String> ordinary(String type);

    /**
     * A value of {@code type} whose size is {@code size} (characters of text, digits of a number), or
     * empty when the type has no size that can grow.
     */
    Optional<String> sized(String type, int size);

    /**
     * The query that evaluates {@code s} with {@code arguments} and returns one row with one number:
     * the output's size in characters (0 for NULL), or for a set-returning call its row count.
     */
    String measure(Signature s, List<String> arguments);

    /**
     * The types whose {@link #sized} values are measured at an argument of {@code type}: the type
     * itself, or for an engine that reads one untyped argument as text or as a number (MariaDB),
     * each of those.
     */
    default List<String> growthTypes(String type) {
        return List.of(type);
    }

    /** Whether {@code e} is the engine's statement timeout rather than an error about the values. */
    boolean isTimeout(SQLException e);

    /**
     * Whether the engine interrupts a long call at a statement timeout. Only then are adversarial
     * values run at arguments the catalog already calls partial (to catch one that runs too long);
     * on an engine that cannot interrupt a scalar call (DuckDB) they are left out.
     */
    default boolean interruptsLongCalls() {
        return true;
    }
}
