package dev.sqlguard.mysql.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * Placeholders while a statement is rendered: each {@code ?} becomes a marker carrying its position
 * in the model's text (no literal or name sqlguard renders can hold the NUL character that delimits
 * it). Once the statement is rendered, the markers must appear exactly once each and in the text's
 * order, so that the values bind where the model put them; then they become {@code ?} again.
 */
final class ParameterMarkers {
    private static final Pattern MARKER = Pattern.compile("\u0000([0-9]+)\u0000");

    String marker(int index) {
        return "\u0000" + index + "\u0000";
    }

    /**
     * @return the rendered text with {@code ?} placeholders
     * @throws GuardException when a parameter would bind elsewhere than where the model put it
     */
    static Bound bind(String rendered) {
        Matcher m = MARKER.matcher(rendered);
        StringBuilder out = new StringBuilder();
        int expected = 1;
        while (m.find()) {
            if (Integer.parseInt(m.group(1)) != expected) {
                throw new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED,
                        "Parameters could not be matched to their positions; use plain ? placeholders, and repeat an expression"
                                + " with a parameter instead of reusing its alias.");
            }
            expected++;
            m.appendReplacement(out, "?");
        }
        m.appendTail(out);
        return new Bound(out.toString(), expected - 1);
    }

    record Bound(String sql, int count) {
    }
}
