package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.app.tools.internal.AgentJson;

/**
 * A named list of questions over one source. The shipped set is {@link #DEMO_RESOURCE}: twenty
 * questions over the demo source's {@code claims} table.
 *
 * <p>JSON form: {@code {"name", "description", "source", "questions": [{"id", "question", "sql",
 * "ignore_columns": []}]}}.
 */
public record EvaluationSet(String name, String description, String source, List<EvaluationQuestion> questions) {
    public static final String DEMO_RESOURCE = "eval/claims-eval.json";

    public EvaluationSet {
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        requireNonNull(source, "source is null");
        questions = List.copyOf(questions);
        if (questions.isEmpty()) {
            throw new IllegalArgumentException("an evaluation set needs questions");
        }
        Set<String> ids = new HashSet<>();
        for (EvaluationQuestion q : questions) {
            if (!ids.add(q.id())) {
                throw new IllegalArgumentException("question id " + q.id() + " is used twice");
            }
        }
    }

    /** The shipped demo set. */
    public static EvaluationSet demo() {
        return fromResource(DEMO_RESOURCE);
    }

    /** A set from a classpath resource. */
    public static EvaluationSet fromResource(String resource) {
        return parse(AgentJson.resource(resource));
    }

    /** A set from JSON text (for example a file given to the CLI). */
    public static EvaluationSet parse(String json) {
        return parse(AgentJson.parseTrusted(json));
    }

    private static EvaluationSet parse(JsonNode root) {
        List<EvaluationQuestion> questions = new ArrayList<>();
        for (JsonNode q : root.path("questions")) {
            Set<String> ignore = new LinkedHashSet<>();
            q.path("ignore_columns").forEach(c -> ignore.add(c.asText()));
            questions.add(new EvaluationQuestion(q.path("id").asText(), q.path("question").asText(), q.path("sql").asText(), ignore));
        }
        return new EvaluationSet(root.path("name").asText(), root.path("description").asText(), root.path("source").asText(),
                questions);
    }
}
