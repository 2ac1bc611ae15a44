package dev.sqlguard.duckdb.internal;

/** Whether a statement inspects a schema, which DuckDB plans in its own fixed ways. */
enum Inspection {
    /** An ordinary query. */
    NONE,
    /** SHOW, DESCRIBE, SHOW TABLES, or SUMMARIZE of a query: constant chunks or catalog listings. */
    SCHEMA,
    /**
     * SUMMARIZE of a table: DuckDB's own fixed program of statistics over every column. No expression
     * of it comes from the query, so its steps are not the query computing on values; every column
     * feeds the statistics, which come back redacted wherever one of them is sensitive.
     */
    SUMMARY_OF_TABLE
}
