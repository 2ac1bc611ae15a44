package dev.sqlguard.testing;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A statement that writes, for {@link EngineLevelProofs}: the suite hands it to the engine's raw
 * port ({@link EngineFixture#rawPort}), past the validator, and asserts that the engine itself keeps
 * the database and the next call unchanged.
 *
 * <p>A write of the database ({@link Kind#writesTheDatabase()}) must be refused by the engine, and
 * the fingerprint must not change. A {@link Kind#SETTING} or {@link Kind#TEMP_TABLE} may run where
 * it stays inside the call (a connection of its own, rolled back, discarded), so its {@code trace}
 * is required: a query, its single output aliased {@code n}, that answers before the write and must
 * answer the same afterwards, on every following call.
 *
 * @param kind what the statement tries
 * @param statement the SQL text, as the engine's JDBC query method can run it: an engine whose driver
 *     refuses a data change in {@code executeQuery} needs a form that returns rows (a data-change
 *     table, a function that writes, {@code RETURNING})
 * @param trace for a setting or a temp table, the query that would show it persisted
 */
public record EngineWrite(Kind kind, String statement, Optional<String> trace) {
    /** What a write tries. The suite asserts that a fixture declares each at least once. */
    public enum Kind {
        INSERT(true), UPDATE(true), DDL(true), SEQUENCE_ADVANCE(true), SETTING(false), TEMP_TABLE(false);

        private final boolean writesTheDatabase;

        Kind(boolean writesTheDatabase) {
            this.writesTheDatabase = writesTheDatabase;
        }

        /** Whether the statement, when it runs, changes the database itself (so the engine must refuse it). */
        public boolean writesTheDatabase() {
            return writesTheDatabase;
        }
    }

    public EngineWrite {
        requireNonNull(kind, "kind is null");
        requireNonNull(statement, "statement is null");
        requireNonNull(trace, "trace is null");
        if (!kind.writesTheDatabase() && trace.isEmpty()) {
            throw new IllegalArgumentException(kind + " needs a trace query");
        }
    }

    /** A write of the database: the engine must refuse it. */
    public static EngineWrite refused(Kind kind, String statement) {
        if (!kind.writesTheDatabase()) {
            throw new IllegalArgumentException(kind + " needs a trace query");
        }
        return new EngineWrite(kind, statement, Optional.empty());
    }

    /** A setting or temp object: refused, or leaving {@code trace} (one output, aliased {@code n}) unchanged. */
    public static EngineWrite traced(Kind kind, String statement, String trace) {
        return new EngineWrite(kind, statement, Optional.of(trace));
    }

    /**
     * The writes every SQL engine knows in the same words: an insert, an update and a table created,
     * all on the contract tables, and a temp table that would shadow {@code claims}. A fixture adds
     * its engine's setting and sequence (and a form its driver runs as a query, where it needs one).
     */
    public static List<EngineWrite> standard() {
        return List.of(
                refused(Kind.INSERT, "INSERT INTO regions (region, manager) VALUES ('probe', 'probe')"),
                refused(Kind.UPDATE, "UPDATE claims SET amount = amount + 1 WHERE id = 1"),
                refused(Kind.DDL, "CREATE TABLE sqlguard_probe (x INT)"),
                refused(Kind.DDL, "ALTER TABLE regions ADD COLUMN probe INT"),
                traced(Kind.TEMP_TABLE, "CREATE TEMPORARY TABLE claims AS SELECT region AS id FROM regions",
                        "SELECT count(*) AS n FROM claims"));
    }
}
