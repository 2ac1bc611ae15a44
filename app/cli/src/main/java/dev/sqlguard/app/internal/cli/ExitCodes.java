package dev.sqlguard.app.internal.cli;

import dev.sqlguard.domain.ToolStatus;

/** The CLI's exit codes: a public contract. */
public final class ExitCodes {
    /** OK or NO_EVIDENCE with {@code --sql}; every line processed with {@code --batch}. */
    public static final int OK = 0;
    /** A usage or configuration error: nothing ran. */
    public static final int USAGE = 2;
    /** The single query was REJECTED by a guardrail. */
    public static final int REJECTED = 3;
    /** The single query (or a load) failed with an ERROR. */
    public static final int ERROR = 4;

    private ExitCodes() {
    }

    public static int of(ToolStatus status) {
        return switch (status) {
            case OK, NO_EVIDENCE -> OK;
            case REJECTED -> REJECTED;
            case ERROR -> ERROR;
        };
    }
}
