package dev.sqlguard.testing.differential;

/** One engine under the differential test: the same statement run raw and through the guard. */
public interface Target {
    /** The text as written, on the engine's read-only account without sqlguard; a failure is {@code Failed("RAW", ...)}. */
    Outcome raw(String sql);

    /** The text through sqlguard's whole path (check, render, run, project). */
    Outcome guarded(String sql);

    /**
     * Whether the engine's refusal of {@code sql} as written is a measured fault of the engine itself, which the guard's
     * rendering does not have and answers with the query's meaning (a test of the engine's shows that answer right). Such
     * a case is tallied as {@code ENGINE_FAULT}, not a finding. None by default: each fault is named by the engine's test.
     */
    default boolean enginesOwnFault(String sql, Outcome.Failed raw) {
        return false;
    }
}
