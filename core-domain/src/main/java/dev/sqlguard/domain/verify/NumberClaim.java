package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * One number found in an answer.
 *
 * @param text the span as written, with its sign, currency and suffix (e.g. {@code $1.2M}, {@code −5%})
 * @param start the span's first char index in the answer
 * @param end the index after the span's last char
 * @param kind how the number is read
 * @param value the value with its magnitude applied ({@code 1.2k} is 1200; a percent is in percent, so
 *     {@code 12.5%} is 12.5; a date is {@code yyyyMMdd} with zeros for parts not written)
 * @param decimals the decimal places written ({@code 12.50} has 2, {@code 1.2k} has 1)
 * @param step the precision shown, a power of ten: a value supports the number when it rounds to
 *     it at this step ({@code 12.35} has 0.01, {@code 1.2k} has 100, {@code about 1,200,000} has
 *     100000; never coarser than two significant digits unless a bound word such as "more than" precedes it)
 * @param qualifier the word in front of the number, if any
 * @param currency the currency sign or code, if any
 * @param support what supports it; empty when nothing does
 */
public record NumberClaim(
        String text,
        int start,
        int end,
        ClaimKind kind,
        BigDecimal value,
        int decimals,
        BigDecimal step,
        Qualifier qualifier,
        Optional<String> currency,
        Optional<Support> support) {

    public NumberClaim {
        requireNonNull(text, "text is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(value, "value is null");
        requireNonNull(step, "step is null");
        requireNonNull(qualifier, "qualifier is null");
        requireNonNull(currency, "currency is null");
        requireNonNull(support, "support is null");
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span " + start + ".." + end);
        }
        if (decimals < 0) {
            throw new IllegalArgumentException("decimals is negative");
        }
        if (step.signum() <= 0) {
            throw new IllegalArgumentException("step must be positive");
        }
    }

    public boolean supported() {
        return support.isPresent();
    }

    NumberClaim withSupport(Support s) {
        return new NumberClaim(text, start, end, kind, value, decimals, step, qualifier, currency, Optional.of(s));
    }
}
