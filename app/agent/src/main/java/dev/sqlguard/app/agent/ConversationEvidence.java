package dev.sqlguard.app.agent;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.sqlguard.domain.ToolResult;

/**
 * Everything the model was shown during one question, for claim verification.
 *
 * @param results the successful query results (OK or NO_EVIDENCE), with their columns and rows
 * @param values other values the model was shown: row counts of {@code describe_source}, the
 *     number of rows each result returned, null counts derived by {@code summary_stats}, chart
 *     point counts
 */
public record ConversationEvidence(List<ToolResult> results, List<Object> values) {
    public ConversationEvidence {
        results = List.copyOf(results);
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    /** Every cell of every result, then every other value. */
    public List<Object> allValues() {
        List<Object> all = new ArrayList<>();
        for (ToolResult result : results) {
            result.rows().forEach(all::addAll);
        }
        all.addAll(values);
        return all;
    }
}
