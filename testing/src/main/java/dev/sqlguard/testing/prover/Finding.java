package dev.sqlguard.testing.prover;

import static java.util.Objects.requireNonNull;

/**
 * One place where the catalog is wrong about the engine, with the value that proved it.
 *
 * @param signature the call's form
 * @param position the argument position (from 0)
 * @param kind what the engine showed
 * @param value the argument value (SQL text, shortened) that showed it
 * @param evidence the engine's error, or the sizes measured
 */
public record Finding(Signature signature, int position, Kind kind, String value, String evidence) {
    public Finding {
        requireNonNull(signature, "signature is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(value, "value is null");
        requireNonNull(evidence, "evidence is null");
    }

    /** What the engine showed against the catalog's claim. */
    public enum Kind {
        /** A value made a call fail at an argument the catalog calls total: it must be partial. */
        FAILS_ON_VALUE,
        /** The output grew faster than the input at an argument the catalog does not call amplifying. */
        GROWS_FASTER,
        /** A call ran past the engine's statement timeout at an argument the catalog does not call amplifying. */
        RUNS_TOO_LONG
    }

    @Override
    public String toString() {
        return signature + " argument " + position + ": " + kind + " with " + value + " (" + evidence + ")";
    }
}
