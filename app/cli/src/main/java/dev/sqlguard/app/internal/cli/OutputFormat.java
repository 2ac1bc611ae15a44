package dev.sqlguard.app.internal.cli;

/** How results are printed on stdout. */
public enum OutputFormat {
    /** One JSON object per line: the public contract. */
    json,
    /** A readable table, for terminals. */
    table,
    /** RFC 4180 CSV with a header line; the result's metadata goes to stderr. */
    csv,
    /** Tab-separated values with a header line (tabs, line breaks and backslashes escaped); metadata on stderr. */
    tsv,
    /** A GitHub-flavoured Markdown table; metadata on stderr. */
    markdown;

    /** Whether stdout carries only the rows, with the SQL, status, limits and errors on stderr. */
    boolean rowsOnly() {
        return this == csv || this == tsv || this == markdown;
    }

    /**
     * Whether stderr is read by a person (audit lines then go to a file): every format but json, whose
     * stderr carries the SQL and status lines of the row-only formats, or nothing but logs.
     */
    boolean forPeople() {
        return this != json;
    }
}
