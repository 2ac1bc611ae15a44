package dev.sqlguard.app.agent;

import java.util.List;

/**
 * The outcome of checking an answer's numbers; each list holds numbers as written in the answer.
 *
 * @param supported numbers that match a tool-result value at the precision shown
 * @param derived numbers supported only by a documented derived rule (a share, ratio, sum or
 *     difference of result values), each followed by the rule in parentheses
 * @param unsupported numbers that nothing supports
 * @param exempt numbers that need no support (list markers, ordinals, numbers named in the question)
 */
public record ClaimCheck(List<String> supported, List<String> derived, List<String> unsupported, List<String> exempt) {
    public ClaimCheck {
        supported = List.copyOf(supported);
        derived = List.copyOf(derived);
        unsupported = List.copyOf(unsupported);
        exempt = List.copyOf(exempt);
    }

    /** Nothing was checked (no answer text). */
    public static ClaimCheck none() {
        return new ClaimCheck(List.of(), List.of(), List.of(), List.of());
    }

    public boolean verified() {
        return unsupported.isEmpty();
    }
}
