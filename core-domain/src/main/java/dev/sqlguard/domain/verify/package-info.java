/**
 * Numerical claim verification: every number in an answer must be backed by the tool results.
 *
 * <h2>Use</h2>
 * <pre>{@code
 * Evidence evidence = Evidence.ofResults(toolResults);          // or Evidence.builder()...
 * VerificationReport report = new ClaimVerifier().verify(answer, evidence,
 *         VerificationContext.ofQuestion(question));
 * PolicyOutcome outcome = ClaimPolicy.parse(configured).apply(answer, report);
 * }</pre>
 *
 * <h2>Reading numbers</h2>
 * {@link dev.sqlguard.domain.verify.NumberExtractor} finds each number, reads its sign, currency,
 * percent, magnitude and qualifier, and records the precision shown as a {@code step} (a power of
 * ten): {@code 12.35} → 0.01; {@code 1.2k} → 100; {@code 3.4 million} → 100,000. A step is never
 * coarser than two significant digits ({@code 5M} → 100,000, so 4.8M does not support "5M").
 * After <em>about/around/approximately/roughly/circa/~/≈</em> a whole number is read at its last
 * non-zero digit, still with two significant digits at least ({@code about 1,200,000} → 100,000;
 * {@code about 100} → 10).
 *
 * <h2>When a value supports a number</h2>
 * <ul>
 *   <li>Exact or approximate: the value rounds to the number at its step, half up or half down
 *       ({@code 12.35} ← 12.3456; {@code 1.2k} ← 1,150…1,250; {@code 1,234} ← 1,233.5…1,234.5).</li>
 *   <li>Bounds: after <em>more than/over/above/exceeding</em> (and <em>at least</em>) the value is
 *       larger (or equal), after <em>less than/under/below/fewer than/nearly/almost</em> (and
 *       <em>at most/up to</em>) it is smaller (or equal), and it lies within one step, the step
 *       being the number's last non-zero digit: {@code more than 1,000} holds for 1,001…2,000.</li>
 *   <li>Signs count: {@code -5} is not supported by 5 nor 5 by -5, except that an unsigned number
 *       after a decline word in the same sentence (<em>fell, dropped, decreased, declined, down,
 *       lower, lost, loss, shrank, reduced, negative, minus, deficit</em>) may match a negative
 *       value: "fell 5%" ← -0.05.</li>
 *   <li>Percents: {@code 12.5%} ← 12.5 (a percent column) or 0.125 (a fraction column). A plain
 *       decimal between -1 and 1 ({@code 0.125}) ← 0.125 or 12.5. A whole number without a percent
 *       sign is never scaled: "20" is not supported by 0.2, nor "0.2%" by 20.</li>
 *   <li>Currency is kept in the report but not compared: results carry no currency.</li>
 *   <li>Years (1900–2099, plain, unqualified) need an equal value, a result date in that year, or
 *       the question. Dates ({@code 2024-01-05}, {@code March 3, 2024}, {@code 3 March 2024},
 *       {@code 3/1/2024} in either order, {@code March 2024}, {@code 2024-03}, {@code March 3})
 *       need a date in the result text cells that has every part written, or the same date in
 *       the question. A time of day after an ISO date is ignored.</li>
 *   <li>Numbers inside result text cells count ("iPhone 15", "1,234 units").</li>
 * </ul>
 *
 * <h2>Derived values (on by default; {@code new ClaimVerifier(false)} turns them off)</h2>
 * Bounded and marked {@link dev.sqlguard.domain.verify.SupportKind#DERIVED} in the report:
 * <ul>
 *   <li>{@code ROW_COUNT}: the number of rows of a complete (not truncated) result; supports a
 *       whole number only.</li>
 *   <li>{@code COLUMN_SUM}: the sum of one column of a complete result.</li>
 *   <li>{@code SHARE_OF_COLUMN_SUM}: a value over the sum of its column (complete result, no
 *       negative values).</li>
 *   <li>{@code RATIO} a/b, {@code RELATIVE_CHANGE} (a−b)/b and {@code DIFFERENCE} a−b of two values
 *       in the same column or the same row of one result of at most
 *       {@value dev.sqlguard.domain.verify.Evidence#PAIR_MAX_ROWS} rows and
 *       {@value dev.sqlguard.domain.verify.Evidence#PAIR_MAX_NUMERIC_COLUMNS} numeric columns.</li>
 * </ul>
 * Shares, ratios and relative changes support only a percent, a decimal or a multiple
 * ({@code 3x}, {@code 3 times}), never a bare whole number; relative changes and differences also
 * need a comparison word in the sentence (<em>more, less, than, up, down, rose, fell,
 * increase, gap, vs, compared</em>, ...). Averages, products and values from two different
 * results are not derived.
 *
 * <h2>Exempt numbers (need no support)</h2>
 * <ol>
 *   <li>List markers: {@code 1.} or {@code 1)} (up to three digits) at the start of a line, after
 *       blanks and markdown ({@code **1.**}, {@code ### 2)}, {@code > 3.}, {@code - 4.}).</li>
 *   <li>Ordinals and ranks: {@code 1st}, {@code 2nd}, {@code 3rd}, {@code 4th}, {@code #1}.</li>
 *   <li>Numbers, years and dates that appear in the question.</li>
 *   <li>{@code top N}, {@code bottom N}, {@code first N}, {@code last N} when N is at most the rows
 *       of the largest result.</li>
 * </ol>
 * Digits inside words and identifiers ({@code Q3}, {@code covid19}, {@code COVID-19},
 * {@code FY2024}, {@code 1.2.3}) are not numbers at all. Nothing else is exempt: unlike the
 * guardrails article, small numbers such as 0, 1 and 2 need support like any other.
 */
package dev.sqlguard.domain.verify;
