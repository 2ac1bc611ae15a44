package dev.sqlguard.duckdb.internal;

/** Whether a statement inspects a schema, which DuckDB plans in its own fixed ways. */
enum Inspection {
    /** An ordinary query. */
    NONE,
    /** SHOW, DESCRIBE, SHOW TABLES, or SUMMARIZE of a query: constant chunks or catalog listings. */
    SCHEMA,
    /**
     * SUMMARIZE of a table (anywhere in the statement): DuckDB's own fixed program of statistics over
     * every column. No expression of it comes from the query, so inside it (recognised by
     * {@link FixedPrograms} from DuckDB's plan of the SUMMARIZE alone) its steps are not the query
     * computing on values; what leaves it is each statistic with the columns it derives from, used by
     * the rest of the statement like those columns.
     */
    SUMMARY_OF_TABLE
}
