package dev.sqlguard.app.agent.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbers written in an answer, for scoring the evaluation set (not for claim verification,
 * which the verifier does). Each number carries the half-unit of the precision it was written
 * with, so {@code 3.4 million} stands for anything in [3,350,000, 3,450,000].
 */
public final class AnswerNumbers {
    /** A written number: its value and how far a true value may lie from it given the digits shown. */
    public record Written(BigDecimal value, BigDecimal halfUnit, boolean percent) {
        public boolean matches(BigDecimal expected) {
            if (value.subtract(expected).abs().compareTo(halfUnit) <= 0) {
                return true;
            }
            // "19.3%" also stands for the fraction 0.193
            return percent && value.subtract(expected.movePointRight(2)).abs().compareTo(halfUnit) <= 0;
        }
    }

    private static final Pattern NUMBER = Pattern.compile(
            "(?<![\\w.])(?<sign>[-\u2212])?[$\u20ac\u00a3]?\\s?(?<digits>\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)"
            + "(?:\\s?(?<mag>k|K|thousand|m|M|mn|million|bn|billion|%|percent)\\b|(?<pct>%))?");

    private static final Map<String, Integer> WORDS = Map.ofEntries(
            Map.entry("zero", 0), Map.entry("one", 1), Map.entry("two", 2), Map.entry("three", 3), Map.entry("four", 4),
            Map.entry("five", 5), Map.entry("six", 6), Map.entry("seven", 7), Map.entry("eight", 8), Map.entry("nine", 9),
            Map.entry("ten", 10), Map.entry("eleven", 11), Map.entry("twelve", 12));
    private static final Pattern WORD = Pattern.compile("(?i)\\b(" + String.join("|", WORDS.keySet()) + ")\\b");

    private AnswerNumbers() {
    }

    public static List<Written> in(String text) {
        List<Written> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            String digits = m.group("digits").replace(",", "");
            BigDecimal value = new BigDecimal(digits);
            int scale = Math.max(0, value.scale());
            BigDecimal half = BigDecimal.ONE.movePointLeft(scale).divide(BigDecimal.valueOf(2));
            String mag = m.group("mag") == null ? (m.group("pct") == null ? "" : "%") : m.group("mag");
            int shift = switch (mag.toLowerCase(Locale.ROOT)) {
                case "k", "thousand" -> 3;
                case "m", "mn", "million" -> 6;
                case "bn", "billion" -> 9;
                default -> 0;
            };
            value = value.movePointRight(shift);
            half = half.movePointRight(shift);
            if (m.group("sign") != null) {
                value = value.negate();
            }
            boolean percent = mag.equals("%") || mag.equalsIgnoreCase("percent");
            out.add(new Written(value, half, percent));
        }
        Matcher w = WORD.matcher(text);
        while (w.find()) {
            out.add(new Written(BigDecimal.valueOf(WORDS.get(w.group(1).toLowerCase(Locale.ROOT))), BigDecimal.ZERO, false));
        }
        return out;
    }

    /** Whether some written number matches {@code expected}. */
    public static boolean contains(List<Written> written, BigDecimal expected) {
        return written.stream().anyMatch(w -> w.matches(expected));
    }
}
