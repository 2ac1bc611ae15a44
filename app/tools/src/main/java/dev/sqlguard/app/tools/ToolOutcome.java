package dev.sqlguard.app.tools;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;

/**
 * The outcome of one tool call.
 *
 * @param tool the tool name as the model sent it, when it named a known tool; else {@code "unknown"}
 * @param status OK, NO_EVIDENCE, REJECTED (refused before any database call) or ERROR
 * @param modelJson the JSON text sent back to the model; it holds only safe messages and codes
 * @param results the guarded query results this call produced, in order (empty for
 *     {@code describe_source}, {@code clarify} and refused arguments)
 * @param shownValues values the model was shown besides the cells of {@code results} (row counts,
 *     derived null counts), for claim verification
 * @param chart the chart, for {@code plot_chart}
 * @param clarification the question to hand back to the user, for {@code clarify}
 * @param error the error, when the call failed
 */
public record ToolOutcome(String tool, ToolStatus status, String modelJson, List<ToolResult> results, List<Object> shownValues,
                          Optional<ChartOutput> chart, Optional<String> clarification, Optional<ToolError> error) {
    public ToolOutcome {
        requireNonNull(tool, "tool is null");
        requireNonNull(status, "status is null");
        requireNonNull(modelJson, "modelJson is null");
        results = List.copyOf(results);
        shownValues = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(shownValues));
        requireNonNull(chart, "chart is null");
        requireNonNull(clarification, "clarification is null");
        requireNonNull(error, "error is null");
        boolean failed = status == ToolStatus.REJECTED || status == ToolStatus.ERROR;
        if (failed != error.isPresent()) {
            throw new IllegalArgumentException("status " + status + " and error presence disagree");
        }
    }

    public boolean failed() {
        return error.isPresent();
    }
}
