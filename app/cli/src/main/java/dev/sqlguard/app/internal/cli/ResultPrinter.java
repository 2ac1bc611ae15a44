package dev.sqlguard.app.internal.cli;

import java.io.PrintStream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.ToolResult;

/** Prints results on stdout in the chosen {@link OutputFormat}. */
public interface ResultPrinter {
    /**
     * @param id the id to echo in place of the result's own id (a batch line's id, possibly JSON
     *     null), or null to print the result's id
     */
    void print(ToolResult result, JsonNode id);

    /** The printer of {@code format} on {@code stdout}; formats that print rows only say nothing else. */
    static ResultPrinter of(OutputFormat format, PrintStream stdout) {
        return of(format, stdout, null);
    }

    /**
     * The printer of {@code format} on {@code stdout}. The row-only formats (csv, tsv, markdown) keep
     * stdout for the data: the SQL that ran, the status, the limits hit and any error go to
     * {@code stderr}, one line each (nowhere when it is null).
     */
    static ResultPrinter of(OutputFormat format, PrintStream stdout, PrintStream stderr) {
        return switch (format) {
            case json -> new JsonResultPrinter(stdout);
            case table -> new TableResultPrinter(stdout);
            case csv -> new DelimitedResultPrinter(stdout, stderr, DelimitedResultPrinter.Style.CSV);
            case tsv -> new DelimitedResultPrinter(stdout, stderr, DelimitedResultPrinter.Style.TSV);
            case markdown -> new MarkdownResultPrinter(stdout, stderr);
        };
    }

    /** The printer of a catalog listing ({@link CatalogResults}) in a text format: rows only, a row count under a table. */
    static ResultPrinter listing(OutputFormat format, PrintStream stdout) {
        return format == OutputFormat.table ? new TableResultPrinter(stdout, true) : of(format, stdout, null);
    }
}
