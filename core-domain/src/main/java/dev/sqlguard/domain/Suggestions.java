package dev.sqlguard.domain;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "Did you mean ...?": the known names closest to one that was refused, for messages a model can act on. */
public final class Suggestions {
    /** Names compared at most: longer inputs get no suggestion. */
    private static final int MAX_NAME = 64;

    private Suggestions() {
    }

    /**
     * Up to {@code limit} names from {@code known} closest to {@code name} by edit distance (at most a
     * third of the name's length, and at least 2), nearest first, then alphabetically.
     */
    public static List<String> closest(String name, Iterable<String> known, int limit) {
        String target = name.toLowerCase(Locale.ROOT);
        if (target.isEmpty() || target.length() > MAX_NAME) {
            return List.of();
        }
        int threshold = Math.max(2, target.length() / 3);
        record Candidate(String name, int distance) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (String candidate : known) {
            if (candidate.length() > MAX_NAME) {
                continue;
            }
            String folded = candidate.toLowerCase(Locale.ROOT);
            int d = folded.startsWith(target) || target.startsWith(folded) ? Math.min(1, distance(target, folded))
                    : distance(target, folded);
            if (d <= threshold && !folded.equals(target)) {
                candidates.add(new Candidate(candidate, d));
            }
        }
        candidates.sort(Comparator.comparingInt(Candidate::distance).thenComparing(Candidate::name));
        return candidates.stream().limit(limit).map(Candidate::name).toList();
    }

    /** A sentence ending: {@code " Did you mean 'a' or 'b'?"}, or empty when nothing is close. */
    public static String didYouMean(String name, Iterable<String> known) {
        List<String> names = closest(name, known, 3);
        if (names.isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(" Did you mean ");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                out.append(i == names.size() - 1 ? " or " : ", ");
            }
            out.append(SafeText.identifier(names.get(i)));
        }
        return out.append('?').toString();
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
