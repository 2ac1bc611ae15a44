package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.sqlguard.domain.Amplification;

/**
 * The amplifying calls of one statement, as a validator reports them: per function and kind
 * (absolute or relative) the call that could build the most, an unbounded one before any bounded one.
 * Not thread-safe.
 */
public final class WorstAmplifications {
    private final Map<String, Amplification> byKey = new LinkedHashMap<>();

    public WorstAmplifications() {
    }

    /** A copy of {@code other}, to restore later. */
    public WorstAmplifications(WorstAmplifications other) {
        byKey.putAll(other.byKey);
    }

    /** Keeps {@code call} when it could build more than the call of its function and kind kept so far. */
    public void add(Amplification call) {
        requireNonNull(call, "call is null");
        String key = call.function() + (call.relative() ? "/relative" : "/absolute");
        Amplification known = byKey.get(key);
        if (known == null || call.bound().isEmpty()
                || (known.bound().isPresent() && call.bound().getAsLong() > known.bound().getAsLong())) {
            byKey.put(key, call);
        }
    }

    public void addAll(WorstAmplifications other) {
        other.byKey.values().forEach(this::add);
    }

    /** Makes this hold exactly what {@code snapshot} holds. */
    public void restore(WorstAmplifications snapshot) {
        byKey.clear();
        byKey.putAll(snapshot.byKey);
    }

    /** The calls kept, in the order their function and kind first came. */
    public List<Amplification> list() {
        return new ArrayList<>(byKey.values());
    }
}
