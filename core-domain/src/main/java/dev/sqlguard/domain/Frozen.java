package dev.sqlguard.domain;

import java.util.AbstractList;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeSet;

/**
 * Immutable copies that a later copy recognizes and keeps as they are ({@link QueryPlan}'s facts are
 * passed from plan to plan on every call of a cached plan). Only this class makes them, always from a
 * private copy, so holding one proves that nothing else can change it. Unlike {@link List#copyOf}, a
 * list may hold null (a parameter's value), and a set keeps its order (insertion or sorted).
 */
final class Frozen {
    private Frozen() {
    }

    /** The list as it is when this class froze it, otherwise a frozen copy. */
    static <E> List<E> list(List<E> values) {
        return values instanceof FrozenList<E> frozen ? frozen : new FrozenList<>(new ArrayList<>(values));
    }

    /** The set as it is when this class froze it in insertion order, otherwise a frozen copy in the set's order. */
    static <E> Set<E> orderedSet(Collection<E> values) {
        return values instanceof OrderedSet<E> frozen ? frozen : new OrderedSet<>(new LinkedHashSet<>(values));
    }

    /** The set, sorted, as it is when this class froze it sorted, otherwise a frozen sorted copy. */
    static <E extends Comparable<? super E>> Set<E> sortedSet(Collection<E> values) {
        if (values instanceof OrderedSet<E> frozen && frozen.sorted) {
            return frozen;
        }
        return values.isEmpty() ? emptySorted() : new OrderedSet<>(new TreeSet<>(values));
    }

    @SuppressWarnings("unchecked")
    private static <E> Set<E> emptySorted() {
        return (Set<E>) OrderedSet.EMPTY;
    }

    /** An unmodifiable view of a list no one else holds. */
    static final class FrozenList<E> extends AbstractList<E> implements RandomAccess {
        private final List<E> values;

        private FrozenList(List<E> values) {
            this.values = values;
        }

        @Override
        public E get(int index) {
            return values.get(index);
        }

        @Override
        public int size() {
            return values.size();
        }
    }

    /** An unmodifiable view of a set no one else holds, in its order. */
    static final class OrderedSet<E> extends AbstractSet<E> {
        private static final OrderedSet<Object> EMPTY = new OrderedSet<>(new TreeSet<>());
        private final Set<E> values;
        private final boolean sorted;

        private OrderedSet(Set<E> values) {
            this.values = values;
            this.sorted = values instanceof TreeSet;
        }

        @Override
        public Iterator<E> iterator() {
            return Collections.unmodifiableSet(values).iterator();
        }

        @Override
        public int size() {
            return values.size();
        }

        @Override
        public boolean contains(Object o) {
            return values.contains(o);
        }
    }
}
