package dev.sqlguard.jdbc.ansi;

import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/** The refusals a renderer and its dialect share, so that the same construct is refused the same way on every engine. */
public final class AnsiErrors {
    private AnsiErrors() {
    }

    /** A construct sqlguard understands and does not allow ({@code CONSTRUCT_NOT_ALLOWED}). */
    public static GuardException construct(String message) {
        return new GuardException(ErrorCode.CONSTRUCT_NOT_ALLOWED, message);
    }

    /**
     * Syntax the renderer cannot check and render safely ({@code UNSAFE_SYNTAX}); {@code what} is shown
     * only when it is a short plain phrase (never text from the query).
     */
    public static GuardException unsafe(String what) {
        String shown = what.length() <= 40 && what.chars().allMatch(ch -> Character.isLetterOrDigit(ch) || ch == ' ')
                ? what : "this construct";
        return new GuardException(ErrorCode.UNSAFE_SYNTAX, "The query uses syntax this source cannot check and render safely (" + shown + ").");
    }

    /** {@code keyword + value} when the literal's text matches {@code pattern} exactly, else a refusal. */
    public static String checkedLiteral(String keyword, String value, Pattern pattern) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw unsafe("date or time literal");
        }
        return keyword + value;
    }
}
