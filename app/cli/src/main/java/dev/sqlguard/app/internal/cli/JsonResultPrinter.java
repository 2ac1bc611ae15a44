package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintStream;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.domain.ToolResult;

/** One JSON object per line, flushed at once so that a consumer can stream results. */
final class JsonResultPrinter implements ResultPrinter {
    private final PrintStream out;

    JsonResultPrinter(PrintStream out) {
        this.out = requireNonNull(out, "out is null");
    }

    @Override
    public void print(ToolResult result, JsonNode id) {
        out.println(ToolResultJson.write(result, id));
        out.flush();
    }
}
