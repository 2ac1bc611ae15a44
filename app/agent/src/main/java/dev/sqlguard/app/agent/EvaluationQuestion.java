package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One evaluation question.
 *
 * @param id a short stable id
 * @param question the question put to the agent
 * @param sql the reference SQL whose result is the correct answer (run on the guarded path)
 * @param ignoreColumns result columns the answer need not mention (lower case)
 */
public record EvaluationQuestion(String id, String question, String sql, Set<String> ignoreColumns) {
    public EvaluationQuestion {
        requireNonNull(id, "id is null");
        requireNonNull(question, "question is null");
        requireNonNull(sql, "sql is null");
        if (id.isBlank() || question.isBlank() || sql.isBlank()) {
            throw new IllegalArgumentException("an evaluation question needs an id, a question and SQL");
        }
        ignoreColumns = ignoreColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).collect(Collectors.toUnmodifiableSet());
    }
}
