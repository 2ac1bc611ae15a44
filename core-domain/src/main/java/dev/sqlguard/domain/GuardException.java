package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/**
 * The one exception type that crosses a port. Its message is already safe to show to a model or
 * a user: callers must never build it from driver text, stack traces, paths or query data.
 * The optional cause stays inside the process (logs at debug level) and is never rendered.
 */
public final class GuardException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public GuardException(ErrorCode code, String safeMessage) {
        this(code, safeMessage, null);
    }

    public GuardException(ErrorCode code, String safeMessage, Throwable cause) {
        super(requireNonNull(safeMessage, "safeMessage is null"), cause, false, false);
        this.code = requireNonNull(code, "code is null");
    }

    public GuardException(ErrorCode code) {
        this(code, code.defaultMessage());
    }

    public ErrorCode code() {
        return code;
    }

    /** The message that may be shown to a model or user. */
    public String safeMessage() {
        return getMessage();
    }
}
