package dev.sqlguard.ports.ingest;

/**
 * Trusted ingestion: loads operator-supplied files into a database that engines later query
 * read-only. Never reachable from model input. Discovered like engines, through
 * {@code META-INF/services/dev.sqlguard.ports.ingest.DataLoader}, and chosen by {@link #name()}.
 */
public interface DataLoader {
    /** The engine name this loader writes for, e.g. {@code duckdb}. */
    String name();

    /**
     * Loads every input into {@code request.table()} atomically: on any error the database is
     * left exactly as it was.
     *
     * @throws dev.sqlguard.domain.GuardException with {@code LOAD_FAILED} or
     *     {@code INVALID_ARGUMENT} and a clear message
     */
    LoadReport load(LoadRequest request);
}
