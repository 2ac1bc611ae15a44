package dev.sqlguard.jdbc.ansi;

import static dev.sqlguard.jdbc.ansi.AnsiErrors.construct;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import dev.sqlguard.domain.Amplification;
import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ColumnUse;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.UsePosition;
import dev.sqlguard.domain.port.WorstAmplifications;
import dev.sqlguard.jdbc.ansi.Flows.Flow;

/**
 * The facts one rendering collects (the tables, column uses, functions, table functions and amplifying calls it
 * reads, the caller's parameters and the governed-table slots), the generated-alias counter, and the undoing of a
 * rendering pass whose facts are not the final ones; with the markers that stand for parameters and slots in the
 * text until {@link AnsiRenderer#render} fills them in.
 */
final class RenderFacts {
    /** Before and after the index of a caller's parameter in the text, or of an attribute ({@link #ATTRIBUTE}), until {@link #bindMarkers}. */
    static final char MARK = '\u0001';
    /** Around the index of a governed table reference in {@link #slots}, until the text is filled in. */
    static final char SLOT = '\u0002';
    /** After {@link #MARK}: the marker stands for a caller attribute, whose name follows. */
    static final char ATTRIBUTE = '@';

    final Set<TableRef> tables = new LinkedHashSet<>();
    final Set<ColumnUse> uses = new LinkedHashSet<>();
    final Set<String> functions = new TreeSet<>();
    final Set<String> tableFunctions = new TreeSet<>();
    final WorstAmplifications amplifications = new WorstAmplifications();
    final List<Integer> parameterIndices = new ArrayList<>();
    /** Every reference to a governed table rendered so far, by the index its {@link #SLOT} marker holds. */
    final List<Slot> slots = new ArrayList<>();
    /** The generated aliases handed out so far ({@code tN}, {@code qN}). */
    int aliases;
    /** The statement groups by ROLLUP, CUBE or GROUPING SETS somewhere: filtered tables are then fenced ({@link Slot#fenced}). */
    boolean groupingSets;
    /** The statement has a WHERE, ON or HAVING somewhere: filtered tables are then fenced ({@link Slot#fenced}). */
    private boolean predicates;
    /** The statement joins USING or NATURAL somewhere: with grouping sets it is refused ({@link #requireGroupingSetsApartFromUsing}). */
    private boolean usingJoins;

    /** The statement groups by grouping sets here; refused where it also joins USING or NATURAL. */
    void groupsBySets() {
        groupingSets = true;
        requireGroupingSetsApartFromUsing();
    }

    /**
     * The statement has a predicate of its own here (a WHERE, ON or HAVING), which the engine could evaluate beside a
     * filtered table's filter ({@link AnsiDialect#filteredTableFence}).
     */
    void filtersRows() {
        predicates = true;
    }

    /** The statement joins USING or NATURAL here; refused where it also groups by grouping sets. */
    void joinsUsing() {
        usingJoins = true;
        requireGroupingSetsApartFromUsing();
    }

    /**
     * Grouping sets and a USING/NATURAL join in one statement are refused: PostgreSQL 15 answers the join's merged
     * column in rolled-up rows by plan (with the column known equal to a constant it gives the constant where
     * ROLLUP makes it NULL, and two copies of it share one sort key), so the text as written and any rendering of
     * the merged column can answer differently (differential seeds 13153, 1147330, 1530047).
     */
    private void requireGroupingSetsApartFromUsing() {
        if (groupingSets && usingJoins) {
            throw AnsiErrors.construct("ROLLUP, CUBE and GROUPING SETS are not allowed in a query that joins with USING or NATURAL;"
                    + " join with ON and group by the table's own column.");
        }
    }

    /**
     * A reference to a governed table: its text as written ({@code "s"."t" AS "tN"}) and as executed
     * ({@code (SELECT ... FROM "s"."t" WHERE (filter)) AS "tN"}), and as executed in a statement that has a predicate of
     * its own or groups by grouping sets ({@link AnsiDialect#filteredTableFence}).
     */
    record Slot(String plain, String filtered, String fenced) {
    }

    /** The facts recorded so far, to undo a rendering pass whose facts are not the final ones. */
    record State(int aliases, Set<TableRef> tables, Set<ColumnUse> uses, Set<String> functions,
                 Set<String> tableFunctions, WorstAmplifications amplifications) {
    }

    /** {@code sql} with each governed table's {@link #SLOT} marker replaced by its text as written or as executed. */
    String filled(String sql, boolean filtered) {
        if (slots.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 256);
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == SLOT) {
                int end = sql.indexOf(SLOT, i + 1);
                Slot slot = slots.get(Integer.parseInt(sql.substring(i + 1, end)));
                out.append(!filtered ? slot.plain() : groupingSets || predicates ? slot.fenced() : slot.filtered());
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    State snapshot() {
        return new State(aliases, new LinkedHashSet<>(tables), new LinkedHashSet<>(uses), new TreeSet<>(functions),
                new TreeSet<>(tableFunctions), new WorstAmplifications(amplifications));
    }

    void restore(State s) {
        aliases = s.aliases();
        tables.clear();
        tables.addAll(s.tables());
        uses.clear();
        uses.addAll(s.uses());
        functions.clear();
        functions.addAll(s.functions());
        tableFunctions.clear();
        tableFunctions.addAll(s.tableFunctions());
        amplifications.restore(s.amplifications());
    }

    /** Keeps, per function and kind, the call that could build the most. */
    void record(Amplification call) {
        amplifications.add(call);
    }

    void use(List<Flow> flows, UsePosition position) {
        for (Flow f : flows) {
            if (Flows.isConstant(f)) {
                continue; // reads nothing
            }
            uses.add(new ColumnUse(f.column(), position, f.chain()));
        }
    }

    /**
     * Replaces the parameter and attribute markers by {@code ?} in text order and checks that the caller's
     * parameters keep the parser's order among themselves. Without {@code bindings} (the text as written,
     * which holds no attribute) the parameters' positions are recorded; with it, each placeholder's slot.
     */
    String bindMarkers(String sql, Bindings.Builder bindings) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> indices = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == MARK) {
                int end = sql.indexOf(MARK, i + 1);
                String marker = sql.substring(i + 1, end);
                if (marker.charAt(0) == ATTRIBUTE) {
                    if (bindings == null) {
                        throw new IllegalStateException("an attribute marker in the text as written");
                    }
                    bindings.attribute(marker.substring(1));
                } else {
                    indices.add(Integer.parseInt(marker));
                    if (bindings != null) {
                        bindings.parameter();
                    }
                }
                out.append('?');
                i = end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        for (int k = 0; k < indices.size(); k++) {
            if (indices.get(k) != k + 1) {
                throw construct("Parameters could not be matched to their positions; use plain ? placeholders.");
            }
        }
        if (bindings == null) {
            parameterIndices.addAll(indices);
        }
        return out.toString();
    }
}
