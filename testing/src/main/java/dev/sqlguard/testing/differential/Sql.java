package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A piece of generated SQL: literal text and nested pieces, in order, plus the simpler pieces it may
 * be replaced by when a failing case is shrunk (a sub-expression of the same type, a literal, nothing
 * for an optional clause). Immutable.
 */
public final class Sql {
    /** Written in the text where a probe pair puts its name ({@link QueryGenerator}); never reaches an engine. */
    public static final String PROBE = "\u0001probe\u0001";
    static final Sql EMPTY = new Sql(List.of(), List.of());

    private final List<Object> parts;
    private final List<Sql> simpler;

    private Sql(List<Object> parts, List<Sql> simpler) {
        this.parts = List.copyOf(parts);
        this.simpler = List.copyOf(simpler);
    }

    /** Text and pieces (each a {@link String} or a {@link Sql}), with no simpler form. */
    static Sql of(Object... parts) {
        return new Sql(List.of(parts), List.of());
    }

    /** A piece with the simpler forms it shrinks to, tried in order. */
    Sql orSimpler(List<Sql> alternatives) {
        List<Sql> all = new ArrayList<>(simpler);
        alternatives.forEach(a -> all.add(requireNonNull(a, "alternative is null")));
        return new Sql(parts, all);
    }

    /** An optional piece: it shrinks to nothing. */
    Sql optional() {
        return orSimpler(List.of(EMPTY));
    }

    boolean isEmpty() {
        return render().isEmpty();
    }

    /** The text, with {@link #PROBE} where a probe name goes. */
    public String render() {
        StringBuilder out = new StringBuilder();
        render(out);
        return out.toString();
    }

    private void render(StringBuilder out) {
        for (Object p : parts) {
            if (p instanceof Sql s) {
                s.render(out);
            } else {
                out.append((String) p);
            }
        }
    }

    /** How many pieces the tree holds (itself included). */
    int size() {
        int n = 1;
        for (Object p : parts) {
            if (p instanceof Sql s) {
                n += s.size();
            }
        }
        return n;
    }

    /** This tree with its {@code index}-th piece (pre-order, itself 0) replaced by {@code replacement}. */
    private Sql replace(int[] index, Sql replacement) {
        if (index[0] == 0) {
            index[0] = -1;
            return replacement;
        }
        index[0]--;
        List<Object> out = new ArrayList<>(parts.size());
        for (Object p : parts) {
            if (p instanceof Sql s && index[0] >= 0) {
                out.add(s.replace(index, replacement));
            } else {
                out.add(p);
            }
        }
        return new Sql(out, simpler);
    }

    private Sql at(int[] index) {
        if (index[0] == 0) {
            return this;
        }
        index[0]--;
        for (Object p : parts) {
            if (p instanceof Sql s) {
                Sql found = s.at(index);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * The smallest tree reached from {@code root} by replacing pieces with simpler forms while
     * {@code fails} still holds, trying at most {@code attempts} candidates. {@code root} must fail.
     */
    static Sql shrink(Sql root, Predicate<Sql> fails, int attempts) {
        Sql current = root;
        int tried = 0;
        boolean progress = true;
        while (progress && tried < attempts) {
            progress = false;
            int size = current.size();
            search:
            for (int i = 0; i < size; i++) {
                Sql piece = current.at(new int[] {i});
                for (Sql alternative : piece.simpler) {
                    if (tried++ >= attempts) {
                        break search;
                    }
                    Sql candidate = current.replace(new int[] {i}, alternative);
                    if (!candidate.render().equals(current.render()) && fails.test(candidate)) {
                        current = candidate;
                        progress = true;
                        break search;
                    }
                }
            }
        }
        return current;
    }

    @Override
    public String toString() {
        return render();
    }
}
