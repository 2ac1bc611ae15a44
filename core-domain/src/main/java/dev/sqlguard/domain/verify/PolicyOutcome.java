package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The answer after the claim policy.
 *
 * @param text the answer to show: the original, or the refusal when blocked
 * @param blocked whether the policy replaced the answer
 * @param unsupported the unsupported numbers as written (listed under either policy)
 */
public record PolicyOutcome(String text, boolean blocked, List<String> unsupported) {
    public PolicyOutcome {
        requireNonNull(text, "text is null");
        unsupported = List.copyOf(requireNonNull(unsupported, "unsupported is null"));
        if (blocked && unsupported.isEmpty()) {
            throw new IllegalArgumentException("blocked without an unsupported number");
        }
    }
}
