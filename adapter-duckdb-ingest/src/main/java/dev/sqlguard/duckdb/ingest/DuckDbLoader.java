package dev.sqlguard.duckdb.ingest;

import dev.sqlguard.duckdb.ingest.internal.Ingestion;
import dev.sqlguard.ports.ingest.DataLoader;
import dev.sqlguard.ports.ingest.LoadReport;
import dev.sqlguard.ports.ingest.LoadRequest;

/**
 * Trusted ingestion into a DuckDB database file: CSV, TSV, Parquet, JSON and NDJSON through
 * DuckDB's own readers, .xlsx through Apache POI and DuckDB's Appender. Each load is atomic (one
 * transaction around a staging table) and closes its read-write connection before it returns, so
 * read-only query connections can open the file afterwards. See docs/engines/duckdb-ingestion.md.
 */
public final class DuckDbLoader implements DataLoader {
    public static final String NAME = "duckdb";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public LoadReport load(LoadRequest request) {
        return Ingestion.plan(request).run();
    }
}
