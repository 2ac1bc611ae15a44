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

    /** The printer of {@code format} on {@code stdout}. */
    static ResultPrinter of(OutputFormat format, PrintStream stdout) {
        return switch (format) {
            case json -> new JsonResultPrinter(stdout);
            case table -> new TableResultPrinter(stdout);
        };
    }
}
