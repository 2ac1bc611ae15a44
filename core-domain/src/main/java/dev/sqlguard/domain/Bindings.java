package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each placeholder of an executable statement takes, in placeholder order: the caller's next
 * parameter, or one of the caller's attributes (a row filter's {@code :name}, see {@link RowPolicy}).
 * An engine that numbers its parameters ({@code $n}) puts them in this order too. Immutable.
 */
public final class Bindings {
    private static final Bindings NONE = new Bindings(List.of());

    /** Per placeholder: the attribute's name, or {@code null} for the caller's next parameter. */
    private final List<String> slots;
    private final int parameterCount;
    /** The attributes the placeholders take, each once, in first-use order (computed once: asked on every call). */
    private final Set<String> attributes;

    private Bindings(List<String> slots) {
        this.slots = slots;
        int count = 0;
        Set<String> names = new LinkedHashSet<>();
        for (String slot : slots) {
            if (slot == null) {
                count++;
            } else {
                names.add(slot);
            }
        }
        this.parameterCount = count;
        this.attributes = names.isEmpty() ? Set.of() : Collections.unmodifiableSet(names);
    }

    /** {@code count} placeholders, each the caller's next parameter. */
    public static Bindings parameters(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count is negative");
        }
        return count == 0 ? NONE : new Bindings(Collections.nCopies(count, null));
    }

    /** Placeholders built in text order. */
    public static Builder builder() {
        return new Builder();
    }

    /** Placeholders the caller fills. */
    public int parameterCount() {
        return parameterCount;
    }

    /** Every placeholder. */
    public int size() {
        return slots.size();
    }

    /** Whether some placeholder takes an attribute. */
    public boolean takesAttributes() {
        return parameterCount != slots.size();
    }

    /** The attributes the placeholders take, each once, in first-use order. Immutable. */
    public Set<String> attributes() {
        return attributes;
    }

    /**
     * The values in placeholder order.
     *
     * @throws GuardException {@link ErrorCode#PARAMETER_COUNT_MISMATCH} when the parameters do not match, and
     *     {@link ErrorCode#MISSING_ATTRIBUTE} when an attribute is absent
     */
    public List<Object> bind(List<Object> parameters, Map<String, String> attributes) {
        Parameters.requireCount(parameterCount, parameters.size());
        if (!takesAttributes()) {
            return parameters;
        }
        List<Object> out = new ArrayList<>(slots.size());
        int next = 0;
        for (String slot : slots) {
            if (slot == null) {
                out.add(parameters.get(next++));
            } else {
                String value = attributes.get(slot);
                if (value == null) {
                    throw missing(slot);
                }
                out.add(value);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The refusal of a call that lacks an attribute its row filters need. */
    public static GuardException missing(String attribute) {
        return new GuardException(ErrorCode.MISSING_ATTRIBUTE, "This query reads rows that are filtered by the caller's '"
                + SafeText.identifier(attribute) + "' attribute, and this call does not carry it.");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bindings b && b.slots.equals(slots);
    }

    @Override
    public int hashCode() {
        return slots.hashCode();
    }

    @Override
    public String toString() {
        return "Bindings" + slots;
    }

    /** Collects placeholders in text order. */
    public static final class Builder {
        private final List<String> slots = new ArrayList<>();

        /** The next placeholder takes the caller's next parameter. */
        public Builder parameter() {
            slots.add(null);
            return this;
        }

        /** The next placeholder takes this attribute. */
        public Builder attribute(String name) {
            slots.add(Names.fold(Names.requireName(name, "attribute")));
            return this;
        }

        public Bindings build() {
            return slots.isEmpty() ? NONE : new Bindings(Collections.unmodifiableList(new ArrayList<>(slots)));
        }
    }
}
