package dev.sqlguard.app;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Who the caller is, as the host that accepted the call knows it: the attributes that row filters
 * bind ({@code policy.rows}, {@code :tenant}). They come from the host (the embedding code, the
 * command line, the MCP server's process), never from the model.
 *
 * <p>A name is what a filter's placeholder can name: a letter or {@code _}, then letters, digits or
 * {@code _}, at most {@value #MAX_NAME} characters; names are folded to lower case. A value is a
 * non-empty string of at most {@value #MAX_VALUE} characters without control characters (an empty
 * one is refused: it is what an unset shell variable gives, and it would select the rows whose
 * attribute is empty).
 */
public final class CallerAttributes {
    /** The longest attribute name. */
    public static final int MAX_NAME = 128;
    /** The longest attribute value. */
    public static final int MAX_VALUE = 4096;
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private CallerAttributes() {
    }

    /**
     * The attributes checked, names folded to lower case, in name order.
     *
     * @throws IllegalArgumentException naming the attribute that is invalid, or given twice once folded
     * @throws NullPointerException when the map, a name or a value is null
     */
    public static Map<String, String> checked(Map<String, String> attributes) {
        java.util.Objects.requireNonNull(attributes, "attributes is null");
        Map<String, String> out = new TreeMap<>();
        attributes.forEach((name, value) -> {
            String key = name(name);
            if (out.put(key, value(key, value)) != null) {
                throw new IllegalArgumentException("attribute '" + key + "' is given twice");
            }
        });
        return Collections.unmodifiableMap(out);
    }

    /**
     * A name checked and folded to lower case.
     *
     * @throws IllegalArgumentException when it is not a placeholder name
     */
    public static String name(String name) {
        java.util.Objects.requireNonNull(name, "attribute name is null");
        if (name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("attribute name " + dev.sqlguard.domain.SafeText.identifier(name)
                    + " is invalid; use a letter or _, then letters, digits or _ (at most " + MAX_NAME + ")");
        }
        return name.toLowerCase(Locale.ROOT);
    }

    private static String value(String name, String value) {
        java.util.Objects.requireNonNull(value, "attribute " + name + " is null");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("attribute '" + name + "' has an empty value");
        }
        if (value.length() > MAX_VALUE) {
            throw new IllegalArgumentException("attribute '" + name + "' is longer than " + MAX_VALUE + " characters");
        }
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("attribute '" + name + "' holds a control character");
        }
        return value;
    }
}
