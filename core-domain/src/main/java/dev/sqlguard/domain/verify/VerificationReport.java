package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * The outcome of checking one answer.
 *
 * @param claims every number found, in text order, each with its support if any
 * @param unsupported the claims nothing supports, in text order
 * @param allSupported whether {@code unsupported} is empty
 */
public record VerificationReport(List<NumberClaim> claims, List<NumberClaim> unsupported, boolean allSupported) {
    public VerificationReport {
        claims = List.copyOf(requireNonNull(claims, "claims is null"));
        unsupported = List.copyOf(requireNonNull(unsupported, "unsupported is null"));
        if (allSupported != unsupported.isEmpty()) {
            throw new IllegalArgumentException("allSupported disagrees with unsupported");
        }
        if (unsupported.stream().anyMatch(NumberClaim::supported)) {
            throw new IllegalArgumentException("an unsupported claim has support");
        }
    }

    static VerificationReport of(List<NumberClaim> claims) {
        List<NumberClaim> unsupported = claims.stream().filter(c -> !c.supported()).toList();
        return new VerificationReport(claims, unsupported, unsupported.isEmpty());
    }

    /** The unsupported numbers as written, e.g. {@code [542,000, 12%]}. */
    public List<String> unsupportedTexts() {
        return unsupported.stream().map(NumberClaim::text).toList();
    }
}
