package dev.sqlguard.app.internal.cli;

import static java.util.Objects.requireNonNull;

/**
 * Ends a command early with an exit code and a safe one-line message for stderr; {@link Main}'s
 * execution handler turns it into that exit code.
 */
final class CommandExit extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    CommandExit(int code, String message) {
        super(requireNonNull(message, "message is null"), null, false, false);
        this.code = code;
    }

    int code() {
        return code;
    }
}
