package dev.sqlguard.domain;

import java.util.Locale;
import java.util.regex.Pattern;

/** Identifier helpers shared by the domain records. */
public final class Names {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

    private Names() {
    }

    /** Lower-cases an identifier the way SQL engines fold unquoted names for comparison. */
    public static String fold(String identifier) {
        return identifier.toLowerCase(Locale.ROOT);
    }

    /** Whether the identifier is a plain name that needs no quoting in any supported dialect. */
    public static boolean isPlain(String identifier) {
        return PLAIN.matcher(identifier).matches();
    }

    static String requireName(String value, String what) {
        if (value == null) {
            throw new NullPointerException(what + " is null");
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " is blank");
        }
        if (value.length() > 256) {
            throw new IllegalArgumentException(what + " is longer than 256 characters");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(what + " contains a control character");
            }
        }
        return value;
    }
}
