package dev.sqlguard.domain.verify;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the numbers in a text, in English number format: {@code 1,234,567.89}, grouping by a
 * no-break or thin space ({@code 1 234}) or by plain spaces when at least two groups follow
 * ({@code 1 234 567}), leading {@code .5}, signs {@code -} {@code −} {@code +} (and {@code –} after a
 * space), currency signs and codes, percents, magnitudes and dates.
 *
 * <p>Not numbers: digits inside a word or identifier ({@code Q3}, {@code covid19}, {@code H2O},
 * {@code FY2024}, {@code col_2}), after a letter and a hyphen ({@code COVID-19}, {@code GPT-4}),
 * in dotted runs ({@code 1.2.3}, {@code 192.168.0.1}) and followed by letters and then digits
 * ({@code 3a7f}). Units written after a number ({@code 5kg}, {@code 3 GB}) do not hide it.
 * Number words ({@code three}) are not read. A decimal comma ({@code 12,5}) is not understood:
 * it reads as two numbers, which then fail verification rather than pass by accident.
 */
public final class NumberExtractor {
    private static final String MONTH = "(January|February|March|April|May|June|July|August|September|October|November|December"
            + "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?";
    private static final String DAY = "(\\d{1,2})(?:st|nd|rd|th)?";
    private static final Pattern ISO_DATE = Pattern.compile(
            "(?<![\\p{L}\\p{N}_.-])(\\d{4})-(\\d{2})-(\\d{2})(?:[T ]\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:?\\d{2})?)?(?![\\p{N}])");
    private static final Pattern MONTH_DAY_YEAR = Pattern.compile("(?<!\\p{L})" + MONTH + "\\s+" + DAY + ",?\\s+(\\d{4})(?!\\p{N})");
    private static final Pattern DAY_MONTH_YEAR = Pattern.compile(
            "(?<![\\p{L}\\p{N}])" + DAY + "\\s+(?:of\\s+)?" + MONTH + ",?\\s+(\\d{4})(?!\\p{N})");
    private static final Pattern SLASH_DATE = Pattern.compile("(?<![\\p{N}/])(\\d{1,2})/(\\d{1,2})/(\\d{4})(?![\\p{N}/])");
    private static final Pattern MONTH_YEAR = Pattern.compile("(?<!\\p{L})" + MONTH + ",?\\s+(\\d{4})(?!\\p{N})");
    private static final Pattern ISO_MONTH = Pattern.compile("(?<![\\p{L}\\p{N}_.-])(\\d{4})-(0[1-9]|1[0-2])(?![\\p{N}-])");
    private static final Pattern MONTH_DAY = Pattern.compile("(?<!\\p{L})" + MONTH + "\\s+" + DAY + "(?![\\p{N}\\p{L}])");
    private static final Pattern DAY_MONTH = Pattern.compile("(?<![\\p{L}\\p{N}])" + DAY + "\\s+(?:of\\s+)?" + MONTH + "(?!\\p{L})");

    private static final Pattern NUMBER = Pattern.compile(
            "(?<!\\d)(?:\\d{1,3}(?:,\\d{3}(?!\\d))+|\\d{1,3}(?:[\\u00A0\\u202F\\u2009]\\d{3}(?!\\d))+|\\d{1,3}(?: \\d{3}(?!\\d)){2,}|\\d+)(?:\\.\\d+)?"
            + "|(?<![\\d.])\\.\\d+");
    private static final Pattern PERCENT_SUFFIX = Pattern.compile(
            "(?i)\\s?(?:%|percentage\\s+points?(?!\\p{L})|percent(?!\\p{L})|per\\s?cent(?!\\p{L})|pct(?!\\p{L})|pp(?!\\p{L})|p\\.p\\.)");
    private static final Pattern MAGNITUDE_ATTACHED = Pattern.compile("(MM|mn|bn|tn|k|K|M|B)(?![\\p{L}\\p{N}])");
    private static final Pattern MAGNITUDE_ATTACHED_WITH_CURRENCY = Pattern.compile("(m|b)(?![\\p{L}\\p{N}])");
    private static final Pattern MAGNITUDE_WORD = Pattern.compile("(?i)\\s?(thousand|million|billion|trillion|mn|bn|tn)(?!\\p{L})");
    private static final Pattern CURRENCY_CODE_AFTER = Pattern.compile("\\s?(USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR|SEK|NOK|DKK)(?!\\p{L})|\\s?([€£$¥₹])");
    private static final Pattern CURRENCY_CODE_BEFORE = Pattern.compile("(?<!\\p{L})(USD|EUR|GBP|JPY|CHF|CAD|AUD|CNY|INR|SEK|NOK|DKK)\\s?$");
    private static final Pattern ORDINAL_SUFFIX = Pattern.compile("(?i)(st|nd|rd|th)(?![\\p{L}\\p{N}])");
    private static final Pattern LETTERS_THEN_DIGIT = Pattern.compile("[\\p{L}_]+\\p{N}");
    private static final Pattern TOP_N = Pattern.compile("(?i)(?<!\\p{L})(top|bottom|first|last)\\s+$");
    private static final Pattern QUALIFIER = Pattern.compile("(?i)(?:(?<!\\p{L})(about|around|approximately|approx\\.|roughly|circa"
            + "|just\\s+over|over|more\\s+than|above|greater\\s+than|exceeding|in\\s+excess\\s+of"
            + "|at\\s+least|no\\s+less\\s+than|just\\s+under|under|less\\s+than|below|fewer\\s+than|nearly|almost"
            + "|at\\s+most|up\\s+to|no\\s+more\\s+than)|(~|≈))\\s*$");
    private static final Pattern DECLINE = Pattern.compile("(?i)(?<!\\p{L})(fell|fall|falls|falling|dropped|drop|drops|decreased|decrease"
            + "|decreases|declined|decline|declines|down|lower|lost|loss|losses|shrank|shrunk|reduced|reduction|negative|minus|deficit)(?!\\p{L})");
    private static final Pattern MULTIPLIER_SUFFIX = Pattern.compile("(?i)(?:x|\u00D7|\\s?times|-?fold)(?![\\p{L}\\p{N}])");
    private static final Pattern COMPARISON = Pattern.compile("(?i)(?<!\\p{L})(more|less|fewer|higher|lower|greater|smaller|than"
            + "|difference|differ|gap|ahead|behind|up|down|increase|increased|increases|decrease|decreased|decreases|grew|grow"
            + "|growth|rose|rise|fell|fall|drop|dropped|declined|decline|change|changed|gain|gained|lost|vs|versus|compared"
            + "|above|below|exceeds?|exceeded)(?!\\p{L})");
    private static final Map<String, Integer> MONTHS = Map.ofEntries(
            Map.entry("jan", 1), Map.entry("feb", 2), Map.entry("mar", 3), Map.entry("apr", 4), Map.entry("may", 5),
            Map.entry("jun", 6), Map.entry("jul", 7), Map.entry("aug", 8), Map.entry("sep", 9), Map.entry("oct", 10),
            Map.entry("nov", 11), Map.entry("dec", 12));

    private NumberExtractor() {
    }

    /** Every number in {@code text}, in order, none yet supported. */
    public static List<NumberClaim> extract(String text) {
        return mentions(text).stream().map(Mention::claim).toList();
    }

    /** A number found in a text, with the syntax around it that the verification rules look at. */
    record Mention(NumberClaim claim, int stepExponent, boolean explicitSign, boolean listMarker, boolean ordinal,
                   boolean topN, boolean declineContext, boolean comparisonContext, boolean multiplier, List<DateParts> dates) {
        BigDecimal value() {
            return claim.value();
        }

        ClaimKind kind() {
            return claim.kind();
        }

        /** A plain decimal between -1 and 1 such as {@code 0.125}: may be a percent shown as a fraction. */
        boolean fractionForm() {
            return claim.kind() == ClaimKind.NUMBER && claim.decimals() > 0 && claim.value().abs().compareTo(BigDecimal.ONE) <= 0;
        }
    }

    static List<Mention> mentions(String text) {
        List<Mention> out = new ArrayList<>();
        boolean[] taken = new boolean[text.length()];
        dates(text, taken, out);
        numbers(text, taken, out);
        out.sort(Comparator.comparingInt(m -> m.claim().start()));
        return out;
    }

    private static void dates(String text, boolean[] taken, List<Mention> out) {
        find(text, taken, out, ISO_DATE, m -> List.of(new DateParts(num(m, 1), num(m, 2), num(m, 3))));
        find(text, taken, out, MONTH_DAY_YEAR, m -> List.of(new DateParts(num(m, 3), month(m.group(1)), num(m, 2))));
        find(text, taken, out, DAY_MONTH_YEAR, m -> List.of(new DateParts(num(m, 3), month(m.group(2)), num(m, 1))));
        find(text, taken, out, SLASH_DATE, m -> List.of(new DateParts(num(m, 3), num(m, 1), num(m, 2)),
                new DateParts(num(m, 3), num(m, 2), num(m, 1))));
        find(text, taken, out, MONTH_YEAR, m -> List.of(new DateParts(num(m, 2), month(m.group(1)), 0)));
        find(text, taken, out, ISO_MONTH, m -> List.of(new DateParts(num(m, 1), num(m, 2), 0)));
        find(text, taken, out, MONTH_DAY, m -> List.of(new DateParts(0, month(m.group(1)), num(m, 2))));
        find(text, taken, out, DAY_MONTH, m -> List.of(new DateParts(0, month(m.group(2)), num(m, 1))));
    }

    private interface PartsReader {
        List<DateParts> read(Matcher m);
    }

    private static void find(String text, boolean[] taken, List<Mention> out, Pattern pattern, PartsReader reader) {
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            if (anyTaken(taken, m.start(), m.end())) {
                continue;
            }
            List<DateParts> parts = reader.read(m).stream().filter(DateParts::valid).toList();
            if (parts.isEmpty()) {
                continue; // "13/13/2024", "2024-13-45": not a date; the digits are read as numbers
            }
            mark(taken, m.start(), m.end());
            DateParts p = parts.get(0);
            BigDecimal value = BigDecimal.valueOf(p.year() * 10000L + p.month() * 100L + p.day());
            NumberClaim claim = new NumberClaim(m.group(), m.start(), m.end(), ClaimKind.DATE, value, 0, BigDecimal.ONE,
                    Qualifier.EXACT, Optional.empty(), Optional.empty());
            out.add(new Mention(claim, 0, false, false, false, false, false, false, false, parts));
        }
    }

    private static void numbers(String text, boolean[] taken, List<Mention> out) {
        int len = text.length();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            int s = m.start();
            int e = m.end();
            if (anyTaken(taken, s, e)) {
                continue;
            }
            // dotted runs: 1.2.3, 192.168.0.1
            if (e + 1 < len && text.charAt(e) == '.' && Character.isDigit(text.charAt(e + 1))) {
                skipRun(text, m, e);
                continue;
            }
            int q = s;
            int sign = 0;
            String currency = null;
            if (q > 0 && signAllowed(text, q - 1)) {
                sign = text.charAt(q - 1) == '+' ? 1 : -1;
                q--;
            }
            if (q > 0 && isCurrencySign(text.charAt(q - 1))) {
                currency = String.valueOf(text.charAt(q - 1));
                q--;
                if (q >= 2 && currency.equals("$") && Character.isUpperCase(text.charAt(q - 1))) {
                    int r = q - 1;
                    while (r > 0 && r > q - 3 && Character.isUpperCase(text.charAt(r - 1))) {
                        r--;
                    }
                    if (r == 0 || !Character.isLetterOrDigit(text.charAt(r - 1))) {
                        currency = text.substring(r, q) + "$"; // US$, A$, C$, NZ$
                        q = r;
                    }
                }
                if (sign == 0 && q > 0 && signAllowed(text, q - 1)) {
                    sign = text.charAt(q - 1) == '+' ? 1 : -1;
                    q--;
                }
            } else {
                Matcher code = CURRENCY_CODE_BEFORE.matcher(text.substring(Math.max(0, q - 4), q));
                if (code.find()) {
                    currency = code.group(1);
                    q -= code.end() - code.start();
                }
            }
            boolean ordinal = false;
            boolean multiplier = false;
            if (q == s && s > 0) {
                char before = text.charAt(s - 1);
                if (isWordChar(before)) {
                    continue; // Q3, covid19, H2O, col_2
                }
                if (before == '.' && s >= 2 && isWordChar(text.charAt(s - 2))) {
                    continue; // tail of a dotted run or file.2
                }
                if ((before == '-' || before == '\u2010') && s >= 2 && Character.isLetter(text.charAt(s - 2))) {
                    continue; // COVID-19, GPT-4
                }
                ordinal = before == '#';
            }
            // suffixes
            int end = e;
            ClaimKind kind = ClaimKind.NUMBER;
            int magnitude = 0;
            String rest = text.substring(e, Math.min(len, e + 24));
            Matcher pm = PERCENT_SUFFIX.matcher(rest);
            if (pm.lookingAt()) {
                kind = ClaimKind.PERCENT;
                end = e + pm.end();
            } else {
                Matcher mm = MAGNITUDE_ATTACHED.matcher(rest);
                Matcher mc = MAGNITUDE_ATTACHED_WITH_CURRENCY.matcher(rest);
                Matcher mw = MAGNITUDE_WORD.matcher(rest);
                if (mm.lookingAt()) {
                    magnitude = magnitude(mm.group(1));
                    end = e + mm.end();
                } else if (currency != null && mc.lookingAt()) {
                    magnitude = magnitude(mc.group(1));
                    end = e + mc.end();
                } else if (mw.lookingAt()) {
                    magnitude = magnitude(mw.group(1));
                    end = e + mw.end();
                }
                if (currency == null) {
                    Matcher ca = CURRENCY_CODE_AFTER.matcher(text.substring(end, Math.min(len, end + 5)));
                    if (ca.lookingAt()) {
                        currency = ca.group(1) != null ? ca.group(1) : ca.group(2);
                        end += ca.end();
                    }
                }
                Matcher times = MULTIPLIER_SUFFIX.matcher(text.substring(end, Math.min(len, end + 8)));
                if (end == e && times.lookingAt()) {
                    multiplier = true;
                    end += times.end();
                }
                if (end == e) {
                    if (ORDINAL_SUFFIX.matcher(rest).lookingAt() && m.group().chars().allMatch(Character::isDigit)) {
                        ordinal = true;
                    } else if (LETTERS_THEN_DIGIT.matcher(rest).lookingAt()) {
                        skipRun(text, m, e);
                        continue; // 3a7f, 2b3c: an identifier
                    }
                }
            }
            mark(taken, q, end);

            String digits = m.group().replaceAll("[,\\u00A0\\u202F\\u2009 ]", "");
            BigDecimal base = new BigDecimal(digits.startsWith(".") ? "0" + digits : digits);
            int decimals = Math.max(0, base.scale());
            BigDecimal value = base.movePointRight(magnitude);
            if (value.scale() < 0) {
                value = value.setScale(0, RoundingMode.UNNECESSARY);
            }
            String before = text.substring(Math.max(0, q - 30), q);
            Qualifier qualifier = qualifier(before);
            int stepExp = magnitude - decimals;
            if (qualifier != Qualifier.EXACT && decimals == 0 && magnitude == 0) {
                stepExp = trailingZeros(base);
            }
            int intDigits = value.abs().compareTo(BigDecimal.ONE) < 0 ? 0
                    : value.abs().setScale(0, RoundingMode.DOWN).toPlainString().length();
            boolean bound = qualifier != Qualifier.EXACT && qualifier != Qualifier.APPROXIMATE;
            if (stepExp > 0 && !bound) {
                stepExp = Math.min(stepExp, Math.max(0, intDigits - 2)); // never coarser than two significant digits
            }
            if (sign < 0) {
                value = value.negate();
            }
            boolean plainInt = decimals == 0 && magnitude == 0 && sign == 0 && currency == null && digits.equals(m.group());
            if (kind == ClaimKind.NUMBER && plainInt && digits.length() == 4 && qualifier == Qualifier.EXACT) {
                int y = Integer.parseInt(digits);
                if (y >= 1900 && y <= 2099) {
                    kind = ClaimKind.YEAR;
                }
            }
            boolean listMarker = plainInt && kind == ClaimKind.NUMBER && digits.length() <= 3 && listMarker(text, q, end);
            boolean topN = plainInt && kind == ClaimKind.NUMBER && TOP_N.matcher(before).find();
            boolean decline = DECLINE.matcher(sentenceBefore(text, q)).find();
            boolean comparison = COMPARISON.matcher(sentenceBefore(text, q)).find() || COMPARISON.matcher(sentenceAfter(text, end)).find();
            NumberClaim claim = new NumberClaim(text.substring(q, end), q, end, kind, value, decimals,
                    BigDecimal.ONE.scaleByPowerOfTen(stepExp), qualifier, Optional.ofNullable(currency), Optional.empty());
            out.add(new Mention(claim, stepExp, sign != 0, listMarker, ordinal, topN, decline, comparison, multiplier, List.of()));
        }
    }

    private static void skipRun(String text, Matcher m, int from) {
        int i = from;
        while (i < text.length() && (isWordChar(text.charAt(i)) || (text.charAt(i) == '.' && i + 1 < text.length()
                && isWordChar(text.charAt(i + 1))))) {
            i++;
        }
        m.region(i, text.length());
        m.useTransparentBounds(true);
        m.useAnchoringBounds(false);
    }

    private static boolean signAllowed(String text, int i) {
        char c = text.charAt(i);
        char before = i > 0 ? text.charAt(i - 1) : ' ';
        if (c == '-' || c == '\u2212' || c == '+') {
            return !isWordChar(before) && before != '.' && before != '-' && before != '/';
        }
        if (c == '\u2013') {
            return Character.isWhitespace(before) || before == '(' || i == 0;
        }
        return false;
    }

    /** Markdown that may come before a list marker on its line: quote, emphasis, heading, bullet. */
    private static final String MARKDOWN_PREFIX = ">*_#-+";

    /** {@code 1.} or {@code 1)} at the start of a line, after blanks and markdown ({@code **1.** North}, {@code ### 2) South}). */
    private static boolean listMarker(String text, int start, int end) {
        int lineStart = text.lastIndexOf('\n', start - 1) + 1;
        for (int i = lineStart; i < start; i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c) && MARKDOWN_PREFIX.indexOf(c) < 0) {
                return false;
            }
        }
        if (end >= text.length() || (text.charAt(end) != '.' && text.charAt(end) != ')')) {
            return false;
        }
        return end + 1 >= text.length() || Character.isWhitespace(text.charAt(end + 1)) || "*_".indexOf(text.charAt(end + 1)) >= 0;
    }

    private static Qualifier qualifier(String before) {
        Matcher m = QUALIFIER.matcher(before);
        if (!m.find()) {
            return Qualifier.EXACT;
        }
        if (m.group(2) != null) {
            return Qualifier.APPROXIMATE;
        }
        String word = m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return switch (word) {
            case "about", "around", "approximately", "approx.", "roughly", "circa" -> Qualifier.APPROXIMATE;
            case "just over", "over", "more than", "above", "greater than", "exceeding", "in excess of" -> Qualifier.MORE_THAN;
            case "at least", "no less than" -> Qualifier.AT_LEAST;
            case "at most", "up to", "no more than" -> Qualifier.AT_MOST;
            default -> Qualifier.LESS_THAN; // just under, under, less than, below, fewer than, nearly, almost
        };
    }

    /** Up to 60 chars before {@code i}, from the start of the sentence. */
    private static String sentenceBefore(String text, int i) {
        String window = text.substring(Math.max(0, i - 60), i);
        int cut = -1;
        for (String end : new String[] {". ", "! ", "? ", "\n", "; "}) {
            cut = Math.max(cut, window.lastIndexOf(end));
        }
        return cut < 0 ? window : window.substring(cut + 1);
    }

    /** Up to 60 chars after {@code i}, to the end of the sentence. */
    private static String sentenceAfter(String text, int i) {
        String window = text.substring(i, Math.min(text.length(), i + 60));
        int cut = window.length();
        for (String end : new String[] {". ", "! ", "? ", "\n", "; "}) {
            int at = window.indexOf(end);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return window.substring(0, cut);
    }

    private static int magnitude(String suffix) {
        return switch (suffix.toLowerCase(Locale.ROOT)) {
            case "k", "thousand" -> 3;
            case "m", "mm", "mn", "million" -> 6;
            case "b", "bn", "billion" -> 9;
            default -> 12; // tn, trillion
        };
    }

    private static int trailingZeros(BigDecimal integer) {
        BigDecimal v = integer.abs();
        if (v.signum() == 0) {
            return 0;
        }
        int zeros = 0;
        while (v.remainder(BigDecimal.TEN).signum() == 0) {
            v = v.divide(BigDecimal.TEN);
            zeros++;
        }
        return zeros;
    }

    private static boolean isCurrencySign(char c) {
        return c == '$' || c == '€' || c == '£' || c == '¥' || c == '₹';
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    private static boolean anyTaken(boolean[] taken, int from, int to) {
        for (int i = from; i < to; i++) {
            if (taken[i]) {
                return true;
            }
        }
        return false;
    }

    private static void mark(boolean[] taken, int from, int to) {
        for (int i = from; i < to; i++) {
            taken[i] = true;
        }
    }

    private static int num(Matcher m, int group) {
        return Integer.parseInt(m.group(group));
    }

    private static int month(String name) {
        return MONTHS.get(name.substring(0, 3).toLowerCase(Locale.ROOT));
    }
}
