package dev.sqlguard.domain;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides whether a column name is sensitive: the built-in patterns plus names a policy adds.
 * Matching ignores case and separators, so {@code PassWord}, {@code user_password},
 * {@code apiKey} and {@code API-KEY} all match.
 */
public final class SensitiveNames {
    /** Built-in fragments, compared against the name with separators removed. */
    private static final List<String> BUILT_IN_FRAGMENTS = List.of(
            "password", "passwd", "pwd", "secret", "token", "apikey", "privatekey",
            "credential", "ssn", "socialsecurity", "creditcard", "cardnumber", "cvv",
            "iban", "pin", "accesskey", "sessionkey", "authkey", "salt", "hash");

    /** Fragments matched as whole words only, to avoid "spinner" or "shipping" style hits. */
    private static final Set<String> WORD_ONLY = Set.of("pin", "pwd", "ssn", "cvv", "salt", "hash", "iban");

    private static final Pattern SEPARATORS = Pattern.compile("[_\\-\\s.$]+");
    /**
     * What ends a word: anything but a letter or digit. An unaliased output is labelled with its own
     * text on some engines ({@code rank() OVER (ORDER BY ssn)}), where a name stands next to a bracket.
     */
    private static final Pattern NON_WORD = Pattern.compile("[^\\p{L}\\p{N}]+");

    private SensitiveNames() {
    }

    /** Whether {@code column} matches a built-in pattern or one of {@code extra} (exact, case-insensitive). */
    public static boolean isSensitive(String column, Set<String> extra) {
        if (!extra.isEmpty() && extra.contains(Names.fold(column))) {
            return true;
        }
        Boolean known = BUILT_IN.get(column);
        if (known != null) {
            return known;
        }
        boolean sensitive = matchesBuiltIn(column);
        if (BUILT_IN.size() >= CACHED_NAMES) {
            BUILT_IN.clear(); // bounded: names come from catalogs and results, and a model can invent many
        }
        BUILT_IN.put(column, sensitive);
        return sensitive;
    }

    /** The built-in verdict per name as written: it is asked for every column of every result. */
    private static final java.util.concurrent.ConcurrentHashMap<String, Boolean> BUILT_IN = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int CACHED_NAMES = 4096;

    private static boolean matchesBuiltIn(String column) {
        String folded = Names.fold(column);
        String compact = SEPARATORS.matcher(folded).replaceAll("");
        List<String> words = List.of(NON_WORD.split(splitCamel(column)));
        for (String fragment : BUILT_IN_FRAGMENTS) {
            if (WORD_ONLY.contains(fragment)) {
                if (words.contains(fragment)) {
                    return true;
                }
            } else if (compact.contains(fragment)) {
                return true;
            }
        }
        return false;
    }

    private static String splitCamel(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (i > 0 && Character.isUpperCase(c) && Character.isLowerCase(name.charAt(i - 1))) {
                out.append('_');
            }
            out.append(Character.toLowerCase(c));
        }
        return out.toString();
    }
}
