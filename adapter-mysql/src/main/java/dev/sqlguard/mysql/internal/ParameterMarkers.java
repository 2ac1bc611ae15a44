package dev.sqlguard.mysql.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Names;

/**
 * Placeholders while a statement is rendered: each {@code ?} becomes a marker carrying its position
 * in the model's text, and each {@code :name} placeholder of a row filter a marker carrying the
 * attribute's name (no literal or name sqlguard renders, and no configured filter or mask, can hold
 * the NUL character that delimits them). Once the statement is rendered, the model's markers must
 * appear exactly once each and in the text's order, so that the values bind where the model put them;
 * then every marker becomes {@code ?} again, and the {@link Bindings} record what each takes, in text order.
 */
final class ParameterMarkers {
    private static final Pattern MARKER = Pattern.compile("\u0000(?:([0-9]+)|:([A-Za-z_][A-Za-z0-9_]*))\u0000");

    String marker(int index) {
        return "\u0000" + index + "\u0000";
    }

    /** The marker of a row filter's placeholder for the caller's attribute {@code name}. */
    static String attribute(String name) {
        return "\u0000:" + Names.fold(name) + "\u0000";
    }

    /**
     * @return the rendered text with {@code ?} placeholders, and what each takes
     * @throws GuardException when a parameter would bind elsewhere than where the model put it
     */
    static Bound bind(String rendered) {
        Matcher m = MARKER.matcher(rendered);
        StringBuilder out = new StringBuilder();
        Bindings.Builder bindings = Bindings.builder();
        int expected = 1;
        while (m.find()) {
            if (m.group(2) != null) {
                bindings.attribute(m.group(2));
            } else {
                if (Integer.parseInt(m.group(1)) != expected) {
                    throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                            "Parameters could not be matched to their positions; use plain ? placeholders, and repeat an expression"
                                    + " with a parameter instead of reusing its alias.");
                }
                expected++;
                bindings.parameter();
            }
            m.appendReplacement(out, "?");
        }
        m.appendTail(out);
        return new Bound(out.toString(), bindings.build());
    }

    /** The text with {@code ?} placeholders, and what each placeholder takes. */
    record Bound(String sql, Bindings bindings) {
        /** The caller's parameters the text takes. */
        int count() {
            return bindings.parameterCount();
        }
    }
}
