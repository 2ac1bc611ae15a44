package dev.sqlguard.domain.verify;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.sqlguard.domain.verify.NumberExtractor.Mention;

/**
 * Checks that every number in an answer is supported by the tool results, by a bounded derived
 * rule, or by an explicit exemption. The rules are listed in {@link SupportRule} and described in
 * the package documentation; this class is stateless and thread-safe.
 *
 * <p>Typical use from a planner:
 * <pre>{@code
 * VerificationReport report = new ClaimVerifier().verify(answer, Evidence.ofResults(results),
 *         VerificationContext.ofQuestion(question));
 * PolicyOutcome shown = ClaimPolicy.FLAG.apply(answer, report);
 * }</pre>
 */
public final class ClaimVerifier {
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private final boolean acceptDerived;

    /** A verifier that accepts the derived rules. */
    public ClaimVerifier() {
        this(true);
    }

    /** @param acceptDerived whether the {@link SupportKind#DERIVED} rules may support a number */
    public ClaimVerifier(boolean acceptDerived) {
        this.acceptDerived = acceptDerived;
    }

    public boolean acceptsDerived() {
        return acceptDerived;
    }

    /** Verifies against one complete table of rows. */
    public VerificationReport verify(String answer, List<List<Object>> rows, VerificationContext context) {
        return verify(answer, Evidence.ofRows(requireNonNull(rows, "rows is null")), context);
    }

    public VerificationReport verify(String answer, Evidence evidence, VerificationContext context) {
        requireNonNull(answer, "answer is null");
        requireNonNull(evidence, "evidence is null");
        requireNonNull(context, "context is null");
        List<Mention> question = NumberExtractor.mentions(context.question());
        List<NumberClaim> claims = new ArrayList<>();
        for (Mention m : NumberExtractor.mentions(answer)) {
            Support s = support(m, evidence, question);
            claims.add(s == null ? m.claim() : m.claim().withSupport(s));
        }
        return VerificationReport.of(claims);
    }

    private Support support(Mention m, Evidence evidence, List<Mention> question) {
        if (m.listMarker()) {
            return new Support(SupportRule.LIST_MARKER, "list marker");
        }
        if (m.ordinal()) {
            return new Support(SupportRule.ORDINAL, "ordinal or rank");
        }
        if (m.kind() == ClaimKind.DATE) {
            return dateSupport(m, evidence, question);
        }
        Evidence.Value best = null;
        Hit bestHit = null;
        for (Evidence.Value v : near(evidence.values(), m)) {
            Hit hit = match(m, v.number(), false);
            if (hit != null && (bestHit == null || hit.isBetterThan(bestHit))) {
                best = v;
                bestHit = hit;
            }
        }
        if (best != null) {
            SupportRule rule = switch (bestHit.variant()) {
                case DIRECT -> SupportRule.RESULT_VALUE;
                case PERCENT_OF_FRACTION -> SupportRule.PERCENT_OF_RESULT_FRACTION;
                case FRACTION_OF_PERCENT -> SupportRule.FRACTION_OF_RESULT_PERCENT;
            };
            return new Support(rule, best.where() + bestHit.note());
        }
        if (m.kind() == ClaimKind.YEAR) {
            int year = m.value().intValueExact();
            for (DateParts d : evidence.dates()) {
                if (d.year() == year) {
                    return new Support(SupportRule.YEAR_OF_RESULT_DATE, "a result date in " + year);
                }
            }
        }
        for (Mention q : question) {
            if (q.kind() == ClaimKind.DATE) {
                if (m.kind() == ClaimKind.YEAR && q.dates().stream().anyMatch(d -> d.year() == m.value().intValueExact())) {
                    return new Support(SupportRule.IN_QUESTION, "the question names " + q.claim().text());
                }
            } else if (q.value().compareTo(m.value()) == 0) {
                return new Support(SupportRule.IN_QUESTION, "the question says " + q.claim().text());
            }
        }
        if (m.topN() && m.value().signum() > 0 && m.value().compareTo(BigDecimal.valueOf(evidence.maxRowsShown())) <= 0) {
            return new Support(SupportRule.TOP_N, m.value().toPlainString() + " <= " + evidence.maxRowsShown() + " rows shown");
        }
        if (acceptDerived && m.kind() != ClaimKind.YEAR) {
            return derivedSupport(m, evidence);
        }
        return null;
    }

    private static Support dateSupport(Mention m, Evidence evidence, List<Mention> question) {
        for (DateParts claimed : m.dates()) {
            for (DateParts d : evidence.dates()) {
                if (claimed.isCoveredBy(d)) {
                    return new Support(SupportRule.RESULT_DATE, "a result date " + iso(d));
                }
            }
        }
        for (Mention q : question) {
            for (DateParts asked : q.dates()) {
                for (DateParts claimed : m.dates()) {
                    if (claimed.equals(asked)) {
                        return new Support(SupportRule.IN_QUESTION, "the question names " + q.claim().text());
                    }
                }
            }
        }
        return null;
    }

    private static Support derivedSupport(Mention m, Evidence evidence) {
        Evidence.Derived best = null;
        Hit bestHit = null;
        for (Evidence.Derived d : near(evidence.derived(), m)) {
            if (!applies(d.rule(), m)) {
                continue;
            }
            Hit hit = match(m, d.number(), d.fraction());
            if (hit != null && (bestHit == null || hit.isBetterThan(bestHit)
                    || (hit.distance().compareTo(bestHit.distance()) == 0 && d.rule().ordinal() < best.rule().ordinal()))) {
                best = d;
                bestHit = hit;
            }
        }
        if (best == null) {
            return null;
        }
        return new Support(best.rule(), best.where() + " = " + best.number().stripTrailingZeros().toPlainString() + bestHit.note());
    }

    /**
     * The candidates that could support the claim, found by binary search in a list sorted by
     * value: those within one step of the claim (or of its negation) as is, ×100 or ÷100. The
     * exact check is {@link #match}; this only keeps large results fast.
     */
    private static <T extends Evidence.Candidate> List<T> near(List<T> sorted, Mention m) {
        List<T> out = new ArrayList<>();
        if (sorted.isEmpty()) {
            return out;
        }
        double step = m.claim().step().doubleValue();
        for (BigDecimal c : signs(m)) {
            for (double factor : new double[] {1.0, 100.0, 0.01}) {
                double lo = (c.doubleValue() - step) / factor;
                double hi = (c.doubleValue() + step) / factor;
                double slack = 1e-9 * Math.max(1.0, Math.max(Math.abs(lo), Math.abs(hi)));
                for (int i = lowerBound(sorted, lo - slack); i < sorted.size() && sorted.get(i).approx() <= hi + slack; i++) {
                    out.add(sorted.get(i));
                }
            }
        }
        return out;
    }

    /**
     * Which claims a derived rule may support. A row count supports only a whole number, and
     * neither a count nor a sum supports a multiple ({@code 3x}). Ratios and shares (fractions) support only a
     * percent, a decimal ({@code 0.25}, {@code 1.5}) or a multiple ({@code 3x}, {@code 3 times}),
     * never a bare whole number; differences and relative changes need a comparison word in the
     * sentence ({@code more}, {@code than}, {@code up}, {@code fell}, ...).
     */
    private static boolean applies(SupportRule rule, Mention m) {
        boolean fractionShape = m.kind() == ClaimKind.PERCENT || m.claim().decimals() > 0 || m.multiplier();
        return switch (rule) {
            case ROW_COUNT -> m.kind() == ClaimKind.NUMBER && m.claim().decimals() == 0 && !m.multiplier();
            case COLUMN_SUM -> !m.multiplier();
            case SHARE_OF_COLUMN_SUM, RATIO -> fractionShape;
            case RELATIVE_CHANGE -> fractionShape && m.comparisonContext();
            case DIFFERENCE -> m.comparisonContext();
            default -> false;
        };
    }

    private static int lowerBound(List<? extends Evidence.Candidate> sorted, double value) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid).approx() < value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** How an evidence value was read to support a claim. */
    private enum Variant {
        DIRECT, PERCENT_OF_FRACTION, FRACTION_OF_PERCENT
    }

    /** A match: how the value was read, how far it is from the claim, and whether the claim's sign was flipped. */
    private record Hit(Variant variant, BigDecimal distance, boolean negated) {
        boolean isBetterThan(Hit other) {
            int cmp = distance.compareTo(other.distance);
            return cmp < 0 || (cmp == 0 && variant.ordinal() < other.variant.ordinal());
        }

        String note() {
            String shown = switch (variant) {
                case DIRECT -> "";
                case PERCENT_OF_FRACTION -> ", shown as a percent";
                case FRACTION_OF_PERCENT -> ", shown as a fraction";
            };
            return negated ? shown + ", as a decline" : shown;
        }
    }

    /**
     * Whether {@code v} supports the mention, and how. A fraction (a derived ratio) supports a
     * percent only ×100 and a plain number only as is; a result value supports a percent as is
     * (the column holds percents) or ×100 (it holds fractions), and a plain decimal between -1
     * and 1 as is or ÷100.
     */
    private static Hit match(Mention m, BigDecimal v, boolean fraction) {
        Hit best = null;
        if (m.kind() == ClaimKind.PERCENT) {
            if (!fraction) {
                best = better(best, fits(m, v, Variant.DIRECT));
            }
            best = better(best, fits(m, v.multiply(HUNDRED), Variant.PERCENT_OF_FRACTION));
        } else {
            best = better(best, fits(m, v, Variant.DIRECT));
            if (!fraction && m.fractionForm()) {
                best = better(best, fits(m, v.movePointLeft(2), Variant.FRACTION_OF_PERCENT));
            }
        }
        return best;
    }

    private static Hit better(Hit a, Hit b) {
        if (a == null) {
            return b;
        }
        return b != null && b.isBetterThan(a) ? b : a;
    }

    /** The claimed value, and its negation when an unsigned number follows a decline word ("fell 5%"). */
    private static List<BigDecimal> signs(Mention m) {
        BigDecimal c = m.value();
        if (m.declineContext() && !m.explicitSign() && c.signum() > 0) {
            return List.of(c, c.negate());
        }
        return List.of(c);
    }

    /**
     * Whether {@code t} supports the claim: for an exact or approximate number, {@code t} rounds
     * to it at the step shown; after a bound word, {@code t} is on the stated side and at most one
     * step away ({@code more than 1,000} holds for 1,001 to 2,000).
     */
    private static Hit fits(Mention m, BigDecimal t, Variant variant) {
        Hit best = null;
        for (BigDecimal c : signs(m)) {
            Qualifier q = m.claim().qualifier();
            boolean ok = q == Qualifier.EXACT || q == Qualifier.APPROXIMATE
                    ? roundsTo(t, c, m.stepExponent())
                    : bound(q, t, c) && t.subtract(c).abs().compareTo(m.claim().step()) <= 0;
            if (ok) {
                best = better(best, new Hit(variant, t.subtract(c).abs(), c.signum() != m.value().signum()));
            }
        }
        return best;
    }

    /** Whether {@code t} rounds to {@code c} at step 10^exp, half up or half down (a tie may go either way). */
    static boolean roundsTo(BigDecimal t, BigDecimal c, int exp) {
        BigDecimal scaledT = t.movePointLeft(exp);
        BigDecimal scaledC = c.movePointLeft(exp);
        return scaledT.setScale(0, RoundingMode.HALF_UP).compareTo(scaledC) == 0
                || scaledT.setScale(0, RoundingMode.HALF_DOWN).compareTo(scaledC) == 0;
    }

    /** A bound compares magnitudes when the claim is negative ("fell by more than 5%" for −6%). */
    private static boolean bound(Qualifier q, BigDecimal t, BigDecimal c) {
        int cmp = c.signum() < 0 ? t.abs().compareTo(c.abs()) : t.compareTo(c);
        return switch (q) {
            case MORE_THAN -> cmp > 0;
            case AT_LEAST -> cmp >= 0;
            case LESS_THAN -> cmp < 0;
            case AT_MOST -> cmp <= 0;
            default -> true;
        };
    }

    private static String iso(DateParts d) {
        StringBuilder s = new StringBuilder();
        s.append(d.year() == 0 ? "????" : String.format(Locale.ROOT, "%04d", d.year())).append('-').append(String.format(Locale.ROOT, "%02d", d.month()));
        if (d.day() != 0) {
            s.append('-').append(String.format(Locale.ROOT, "%02d", d.day()));
        }
        return s.toString();
    }
}
