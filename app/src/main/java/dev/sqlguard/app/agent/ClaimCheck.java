package dev.sqlguard.app.agent;

import java.util.List;

/**
 * The outcome of checking an answer's numbers.
 *
 * @param supported numbers (as written) that match a tool-result value
 * @param unsupported numbers (as written) that match none
 * @param exempt numbers that need no support (list ordinals, numbers named in the question)
 */
public record ClaimCheck(List<String> supported, List<String> unsupported, List<String> exempt) {
    public ClaimCheck {
        supported = List.copyOf(supported);
        unsupported = List.copyOf(unsupported);
        exempt = List.copyOf(exempt);
    }

    /** Nothing was checked (no answer text). */
    public static ClaimCheck none() {
        return new ClaimCheck(List.of(), List.of(), List.of());
    }

    public boolean verified() {
        return unsupported.isEmpty();
    }
}
