package dev.sqlguard.app.internal.cli;

/** How results are printed on stdout. */
public enum OutputFormat {
    /** One JSON object per line: the public contract. */
    json,
    /** A readable table, for terminals. */
    table
}
