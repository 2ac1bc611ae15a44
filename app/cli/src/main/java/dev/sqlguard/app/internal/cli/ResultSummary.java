package dev.sqlguard.app.internal.cli;

import java.io.PrintStream;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.LimitKind;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;

/**
 * What the row-only formats (csv, tsv, markdown) say about a result beside the rows, on stderr so
 * that stdout stays a clean data stream: the id of a batch line, the SQL that ran, the error, and
 * one summary line with the row count, status, truncation, limits hit and time.
 */
final class ResultSummary {
    private ResultSummary() {
    }

    static void print(ToolResult result, JsonNode id, PrintStream stderr) {
        if (stderr == null) {
            return;
        }
        StringBuilder text = new StringBuilder();
        if (id != null && !id.isNull()) {
            text.append("id: ").append(TableResultPrinter.clean(id.asText())).append('\n');
        }
        result.sql().ifPresent(sql -> text.append("sql: ").append(TableResultPrinter.clean(sql)).append('\n'));
        if (result.error().isPresent()) {
            ToolError error = result.error().get();
            text.append(result.status()).append(' ').append(error.code()).append(": ")
                    .append(TableResultPrinter.clean(error.message())).append(error.retryable() ? " (retryable)" : "")
                    .append('\n');
        }
        text.append(line(result)).append('\n');
        stderr.print(text);
        stderr.flush();
    }

    /** {@code (5 rows, OK, truncated, limits hit: rows, 12 ms)}. */
    static String line(ToolResult result) {
        StringBuilder text = new StringBuilder();
        text.append('(').append(result.returnedCount()).append(result.returnedCount() == 1 ? " row" : " rows")
                .append(", ").append(result.status());
        if (result.truncated()) {
            text.append(", truncated");
        }
        if (!result.limitsHit().isEmpty()) {
            text.append(", limits hit: ").append(result.limitsHit().stream().sorted()
                    .map(LimitKind::wireName).collect(Collectors.joining(", ")));
        }
        return text.append(", ").append(result.elapsedMs()).append(" ms)").toString();
    }
}
