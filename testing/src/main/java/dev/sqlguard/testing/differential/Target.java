package dev.sqlguard.testing.differential;

/** One engine under the differential test: the same statement run raw and through the guard. */
public interface Target {
    /** The text as written, on the engine's read-only account without sqlguard; a failure is {@code Failed("RAW", ...)}. */
    Outcome raw(String sql);

    /** The text through sqlguard's whole path (check, render, run, project). */
    Outcome guarded(String sql);
}
