package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

/** The error part of a {@link ToolResult}: a stable code, a safe message, and whether retrying can help. */
public record ToolError(ErrorCode code, String message, boolean retryable) {
    public ToolError {
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }

    public static ToolError of(GuardException e) {
        return new ToolError(e.code(), SafeText.clean(e.safeMessage(), e.code()), e.code().retryable());
    }
}
