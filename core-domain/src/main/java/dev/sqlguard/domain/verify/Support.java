package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

/**
 * What supports a number: the rule, and which values it used, e.g.
 * {@code result 'q1', row 2, column 'revenue' = 1234567}.
 */
public record Support(SupportRule rule, String detail) {
    public Support {
        requireNonNull(rule, "rule is null");
        requireNonNull(detail, "detail is null");
    }

    public SupportKind kind() {
        return rule.kind();
    }
}
