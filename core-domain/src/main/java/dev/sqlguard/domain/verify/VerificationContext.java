package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

/**
 * What the verifier knows besides the evidence.
 *
 * @param question the user's question; numbers and dates in it need no support in the answer
 */
public record VerificationContext(String question) {
    public VerificationContext {
        requireNonNull(question, "question is null");
    }

    public static VerificationContext none() {
        return new VerificationContext("");
    }

    public static VerificationContext ofQuestion(String question) {
        return new VerificationContext(question);
    }
}
