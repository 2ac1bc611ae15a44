package dev.sqlguard.app.internal.config;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * Replaces {@code ${NAME}} with the value of environment variable {@code NAME}. {@code $$} stands
 * for a literal {@code $}. A missing variable is an error naming it; the value is never echoed.
 */
public final class EnvSubstitution {
    /** The substituted text and the variables it used. */
    public record Result(String text, Set<String> variables) {
    }

    /** Thrown when a variable is not set or the syntax is wrong; the message is safe to show. */
    public static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message, null, false, false);
        }
    }

    private EnvSubstitution() {
    }

    public static Result apply(String text, Function<String, String> env) throws Problem {
        if (text.indexOf('$') < 0) {
            return new Result(text, Set.of());
        }
        StringBuilder out = new StringBuilder(text.length());
        Set<String> used = new LinkedHashSet<>();
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c != '$') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '$') {
                out.append('$');
                i += 2;
                continue;
            }
            if (i + 1 < text.length() && text.charAt(i + 1) == '{') {
                int end = text.indexOf('}', i + 2);
                if (end < 0) {
                    throw new Problem("'${' has no closing '}'");
                }
                String name = text.substring(i + 2, end);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new Problem("'${...}' must hold an environment variable name (letters, digits, _)");
                }
                String value = env.apply(name);
                if (value == null) {
                    throw new Problem("environment variable " + name + " is not set");
                }
                used.add(name);
                out.append(value);
                i = end + 1;
                continue;
            }
            out.append(c);
            i++;
        }
        return new Result(out.toString(), used);
    }
}
