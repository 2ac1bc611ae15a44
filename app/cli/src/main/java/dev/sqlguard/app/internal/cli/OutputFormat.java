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

    /** Whether this format is for a person at a terminal (audit lines then go to a file). */
    boolean forPeople() {
        return this == table || this == markdown;
    }
}
