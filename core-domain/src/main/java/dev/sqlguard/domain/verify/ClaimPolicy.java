package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.Locale;

/** What to do with an answer that states unsupported numbers. */
public enum ClaimPolicy {
    /** The default: keep the answer and list the unsupported numbers next to it. */
    FLAG,
    /** Replace the answer with a refusal that lists the unsupported numbers. */
    BLOCK;

    public static ClaimPolicy defaultPolicy() {
        return FLAG;
    }

    /** {@code flag} or {@code block}, in any case. */
    public static ClaimPolicy parse(String text) {
        requireNonNull(text, "text is null");
        String t = text.strip().toUpperCase(Locale.ROOT);
        for (ClaimPolicy p : values()) {
            if (p.name().equals(t)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown claim policy; use one of "
                + Arrays.stream(values()).map(p -> p.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** Applies this policy to {@code answer} given its report. An answer with every number supported is kept by both. */
    public PolicyOutcome apply(String answer, VerificationReport report) {
        requireNonNull(answer, "answer is null");
        requireNonNull(report, "report is null");
        if (this == FLAG || report.allSupported()) {
            return new PolicyOutcome(answer, false, report.unsupportedTexts());
        }
        return new PolicyOutcome(refusal(report), true, report.unsupportedTexts());
    }

    /** The text that replaces a blocked answer. */
    public static String refusal(VerificationReport report) {
        return "The answer was withheld because it states numbers that the query results do not support: "
                + String.join("; ", report.unsupportedTexts()) + ". Ask again, or check these figures with a query.";
    }
}
