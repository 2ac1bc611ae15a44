package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.tools.internal.AgentJson;

/**
 * The score of one evaluation run. The headline is {@link #verifiedAndCorrect()}: answers whose
 * every number is supported by a tool result AND that contain the reference answer.
 */
public record EvaluationReport(String setName, String source, List<Item> items) {
    /**
     * One question's outcome.
     *
     * @param status how the agent's run ended
     * @param verified the run answered and every number in the answer is supported
     * @param correct every expected value of the reference result appears in the answer
     * @param missing the expected values the answer lacks
     * @param unsupported the answer's unsupported numbers
     * @param referenceError the error code when the reference SQL itself failed
     */
    public record Item(String id, String question, AnalyticalResponse.Status status, boolean verified, boolean correct,
                       List<String> missing, List<String> unsupported, int turnsUsed, int toolCallsUsed,
                       Optional<String> referenceError) {
        public Item {
            requireNonNull(id, "id is null");
            requireNonNull(question, "question is null");
            requireNonNull(status, "status is null");
            missing = List.copyOf(missing);
            unsupported = List.copyOf(unsupported);
            requireNonNull(referenceError, "referenceError is null");
        }
    }

    public EvaluationReport {
        requireNonNull(setName, "setName is null");
        requireNonNull(source, "source is null");
        items = List.copyOf(items);
    }

    public int total() {
        return items.size();
    }

    public long answered() {
        return items.stream().filter(i -> i.status() == AnalyticalResponse.Status.ANSWERED).count();
    }

    public long verified() {
        return items.stream().filter(Item::verified).count();
    }

    public long correct() {
        return items.stream().filter(Item::correct).count();
    }

    public long verifiedAndCorrect() {
        return items.stream().filter(i -> i.verified() && i.correct()).count();
    }

    public String toJson() {
        ObjectNode root = AgentJson.NODES.objectNode();
        root.put("set", setName);
        root.put("source", source);
        root.put("total", total());
        root.put("answered", answered());
        root.put("verified", verified());
        root.put("correct", correct());
        root.put("verified_and_correct", verifiedAndCorrect());
        ArrayNode list = root.putArray("items");
        for (Item i : items) {
            ObjectNode node = list.addObject();
            node.put("id", i.id());
            node.put("question", i.question());
            node.put("status", i.status().wireName());
            node.put("verified", i.verified());
            node.put("correct", i.correct());
            i.missing().forEach(node.putArray("missing")::add);
            i.unsupported().forEach(node.putArray("unsupported")::add);
            node.put("turns_used", i.turnsUsed());
            node.put("tool_calls_used", i.toolCallsUsed());
            AgentJson.putText(node, "reference_error", i.referenceError());
        }
        return AgentJson.writePretty(root);
    }

    public String toText() {
        StringBuilder out = new StringBuilder();
        out.append("Evaluation ").append(setName).append(" on source ").append(source).append('\n');
        for (Item i : items) {
            out.append(String.format(java.util.Locale.ROOT, "  %-4s %-20s verified=%-5s correct=%-5s", i.id(), i.status().wireName(),
                    i.verified(), i.correct()));
            if (!i.missing().isEmpty()) {
                out.append(" missing=").append(i.missing());
            }
            if (!i.unsupported().isEmpty()) {
                out.append(" unsupported=").append(i.unsupported());
            }
            i.referenceError().ifPresent(e -> out.append(" reference_error=").append(e));
            out.append('\n');
        }
        out.append(String.format(java.util.Locale.ROOT, "Fully verified and correct: %d/%d (answered %d, verified %d, correct %d)%n",
                verifiedAndCorrect(), total(), answered(), verified(), correct()));
        return out.toString();
    }
}
