package dev.sqlguard.mysql.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Names;
import dev.sqlguard.domain.Refusals;
import dev.sqlguard.domain.SafeText;
import net.sf.jsqlparser.expression.WindowDefinition;

/**
 * The names one query block sees: the relations of its FROM clause (as far as the clause has been
 * read), its select items once rendered, the CTEs in force and the enclosing block, whose names a
 * correlated subquery may use. Resolution follows the server: the innermost block first, then
 * outwards. A column that is not allowlisted is not in any relation, so it resolves exactly as a
 * column that does not exist.
 */
final class Scope {
    /** One column a relation offers: its name and what reading it yields. */
    record RelColumn(String name, Value value, String key) {
        RelColumn(String name, Value value) {
            this(name, value, Names.fold(name));
        }
    }

    /**
     * One FROM item.
     *
     * @param visibleName the name the query may qualify columns with (alias or table name)
     * @param schemaName the schema, for a base table named without an alias ({@code guard.claims.id})
     * @param columns its visible columns, in order
     * @param hidden the names of its columns that are not allowlisted
     * @param base whether it is a base table (not a derived table or a common table expression)
     * @param mergedNames for a derived table or CTE that MariaDB may merge into this block, the folded names of the
     *     visible columns of the base tables merged with it
     */
    record Relation(String visibleName, Optional<String> schemaName, List<RelColumn> columns, List<String> hidden, boolean base,
                    Set<String> mergedNames) {
        /** A derived table or a common table expression that MariaDB does not merge: every column visible. */
        Relation(String visibleName, Optional<String> schemaName, List<RelColumn> columns) {
            this(visibleName, schemaName, columns, List.of(), false, Set.of());
        }

        /** A base table, with the names of its columns that are not allowlisted. */
        Relation(String visibleName, Optional<String> schemaName, List<RelColumn> columns, List<String> hidden) {
            this(visibleName, schemaName, columns, hidden, true, Set.of());
        }

        Relation {
            columns = List.copyOf(columns);
            hidden = List.copyOf(hidden);
            mergedNames = Set.copyOf(mergedNames);
        }

        /** A derived table or a common table expression, with what MariaDB may merge of it ({@link SelectRenderer.Query#mergedNames}). */
        static Relation derived(String visibleName, List<RelColumn> columns, Set<String> mergedNames) {
            return new Relation(visibleName, Optional.empty(), columns, List.of(), false, mergedNames);
        }

        Optional<RelColumn> column(String name) {
            String key = Names.fold(name);
            for (RelColumn c : columns) {
                if (c.key().equals(key)) {
                    return Optional.of(c);
                }
            }
            return Optional.empty();
        }
    }

    /**
     * A common table expression: its rendered name and its columns (rendered against a FROM alias later), and what
     * MariaDB may merge of it into a block that reads it ({@link SelectRenderer.Query#mergedNames}).
     */
    record Cte(String renderedName, List<String> columnNames, List<Value> columnValues, Set<String> mergedNames) {
        Cte {
            mergedNames = Set.copyOf(mergedNames);
        }
    }

    /**
     * The folded names of the visible columns of this block's base tables and of what its derived tables and CTEs
     * merge into it: the names MariaDB may find for a bare window key once it has merged them.
     */
    Set<String> mergedNames() {
        Set<String> names = new HashSet<>();
        for (Relation r : relations) {
            if (r.base()) {
                r.columns().forEach(c -> names.add(c.key()));
            } else {
                names.addAll(r.mergedNames());
            }
        }
        return names;
    }

    /**
     * A column of a FROM group (the FROM items between two commas, which the server joins before the
     * comma join), as the server lists it in {@code SELECT *} and resolves an unqualified name: a visible
     * column with its value, or a hidden one (name only: it never resolves, but the server still sees it
     * when it looks for a NATURAL join's common columns). After {@code USING} or {@code NATURAL} a merged
     * column replaces the two it joins.
     *
     * @param relation the index of the last relation it comes from; it is visible once that relation is
     */
    record Slot(String name, String key, Optional<Value> value, int relation) {
        Slot(String name, Optional<Value> value, int relation) {
            this(name, Names.fold(name), value, relation);
        }

        boolean hidden() {
            return value.isEmpty();
        }
    }

    /**
     * A rendered select item.
     *
     * @param aggregate whether the item calls an aggregate of this block (MariaDB refuses its alias inside an
     *     ORDER BY or window expression: 1247 "reference to group function")
     */
    record Item(String label, Value value, Optional<Object> bareColumn, boolean hasParameter, boolean aggregate) {
        Item(String label, Value value, Optional<Object> bareColumn, boolean hasParameter) {
            this(label, value, bareColumn, hasParameter, false);
        }
    }

    private final Scope parent;
    private final Map<String, Cte> ctes;
    private final List<Relation> relations = new ArrayList<>();
    private final List<Item> items = new ArrayList<>();
    /** Whether a window function of this block was rendered ({@link #windowFunction}). */
    private boolean windowFunction;
    /** Whether an aggregate over DISTINCT values of this block was rendered ({@link #distinctAggregate}). */
    private boolean distinctAggregate;
    /** Whether an aggregate that collects its group's values was rendered ({@link #collectingAggregate}). */
    private boolean collectingAggregate;
    /** The FROM groups, each in the server's SELECT * order. */
    private final List<List<Slot>> groups = new ArrayList<>();
    /** This block's named windows ({@code WINDOW w AS (...)}), and the names a window function used. */
    private final Map<String, WindowDefinition> windows = new HashMap<>();
    private final Set<String> usedWindows = new HashSet<>();
    /** The names this block's rendered GROUP BY keys could carry as columns ({@link #groupedNames(List)}). */
    private List<String> groupedNames = List.of();
    /** Whether this block's ORDER BY orders plain rows: no DISTINCT, GROUP BY, HAVING or aggregate ({@link #orderingRows}). */
    private boolean orderingRows;
    /** How many relations the expression being rendered may see (a join's ON sees the tables before it). */
    private int visible;
    /** How many aggregate calls of this block have been rendered so far. */
    private int aggregates;
    /** The aliases of this block's select items that call a window function. */
    private final Set<String> windowLabels = new HashSet<>();
    /** Table names, schema names and table aliases are compared exactly (else folded); column names are always folded. */
    private final boolean exactTableNames;

    Scope(Scope parent) {
        this(parent, parent != null && parent.exactTableNames);
    }

    private Scope(Scope parent, boolean exactTableNames) {
        this.parent = parent;
        this.ctes = parent == null ? new HashMap<>() : new HashMap<>(parent.ctes);
        this.exactTableNames = exactTableNames;
    }

    /**
     * A statement's outermost block.
     *
     * @param exactTableNames table names and aliases are compared exactly ({@link ServerReading#exactTableNames})
     */
    static Scope root(boolean exactTableNames) {
        return new Scope(null, exactTableNames);
    }

    /** Whether two table names or aliases are the same, as the server compares them. */
    private boolean sameTableName(String a, String b) {
        return exactTableNames ? a.equals(b) : Names.fold(a).equals(Names.fold(b));
    }

    Scope parent() {
        return parent;
    }

    /**
     * Records, before the ORDER BY is rendered, whether it orders plain rows: with no DISTINCT, GROUP BY,
     * HAVING or aggregate in the block, a column named inside an ORDER BY expression is one value per row.
     */
    void orderingRows(boolean plain) {
        orderingRows = plain;
    }

    /** Records, once the GROUP BY is rendered, every name its keys could carry as columns (more, never fewer). */
    void groupedNames(List<String> names) {
        groupedNames = List.copyOf(names);
    }

    /** The names this block's GROUP BY keys could carry as columns; none without a GROUP BY. */
    List<String> groupedNames() {
        return groupedNames;
    }

    /** Whether this block's ORDER BY orders plain rows ({@link #orderingRows(boolean)}). */
    boolean ordersRows() {
        return orderingRows;
    }

    /** Records the alias of a select item of this block that calls a window function. */
    void windowLabel(String label) {
        windowLabels.add(Names.fold(label));
    }

    /** Whether {@code name} is the alias of a select item of this block that calls a window function. */
    boolean isWindowLabel(String name) {
        return windowLabels.contains(Names.fold(name));
    }

    /** Counts an aggregate call rendered in this block (not in a subquery of it, which has its own scope). */
    void noteAggregate() {
        aggregates++;
    }

    /** How many aggregate calls of this block have been rendered so far. */
    int aggregates() {
        return aggregates;
    }

    void addCte(String name, Cte cte) {
        ctes.put(Names.fold(name), cte);
    }

    Optional<Cte> cte(String name) {
        return Optional.ofNullable(ctes.get(Names.fold(name)));
    }

    void addRelation(Relation relation) {
        for (Relation r : relations) {
            if (sameTableName(r.visibleName(), relation.visibleName())) {
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The name " + SafeText.identifier(relation.visibleName())
                        + " is used for two tables; give each an alias.");
            }
        }
        relations.add(relation);
    }

    void defineWindow(WindowDefinition definition) {
        String name = Names.fold(MySqlQuoting.unquote(definition.getWindowName()));
        if (windows.putIfAbsent(name, definition) != null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The window " + SafeText.identifier(name) + " is defined twice.");
        }
    }

    /** The named window of this block (never an enclosing one: the server scopes window names to their block). */
    WindowDefinition window(String name) {
        String key = Names.fold(MySqlQuoting.unquote(name));
        WindowDefinition found = windows.get(key);
        if (found == null) {
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The window " + SafeText.identifier(key)
                    + " is not defined in the WINDOW clause of this query block.");
        }
        usedWindows.add(key);
        return found;
    }

    /** Names of defined windows no function used. */
    /** Records that this block's own text calls a window function (not one of its subqueries). */
    void windowFunction() {
        windowFunction = true;
    }

    /** Whether this block's own text calls a window function. */
    boolean hasWindowFunction() {
        return windowFunction;
    }

    /** Records that this block's own text calls an aggregate over DISTINCT values ({@code count(DISTINCT x)}). */
    void distinctAggregate() {
        distinctAggregate = true;
    }

    /** Whether this block's own text calls an aggregate over DISTINCT values. */
    boolean hasDistinctAggregate() {
        return distinctAggregate;
    }

    /** Records that this block's own text calls an aggregate that collects its group's values ({@code group_concat}). */
    void collectingAggregate() {
        collectingAggregate = true;
    }

    /**
     * Whether this block's own text calls an aggregate that keeps its group's values, not one running value: one over
     * DISTINCT values, or one that collects them ({@code group_concat}).
     */
    boolean hasValueKeepingAggregate() {
        return distinctAggregate || collectingAggregate;
    }

    Set<String> unusedWindows() {
        Set<String> out = new HashSet<>(windows.keySet());
        out.removeAll(usedWindows);
        return out;
    }

    /** The slots of relation {@code index}: its visible columns in order, then its hidden ones. */
    List<Slot> slots(int index) {
        Relation r = relations.get(index);
        List<Slot> out = new ArrayList<>();
        r.columns().forEach(c -> out.add(new Slot(c.name(), Optional.of(c.value()), index)));
        r.hidden().forEach(h -> out.add(new Slot(h, Optional.empty(), index)));
        return out;
    }

    /** A new FROM group (the first item, or one after a comma). */
    void startGroup(List<Slot> slots) {
        groups.add(new ArrayList<>(slots));
    }

    /** The current (last) group: the left operand of a join. */
    List<Slot> currentGroup() {
        return List.copyOf(groups.get(groups.size() - 1));
    }

    void replaceGroup(List<Slot> slots) {
        groups.set(groups.size() - 1, new ArrayList<>(slots));
    }

    /** What {@code *} lists: every visible column of every group, in the server's order. */
    List<Slot> starSlots() {
        List<Slot> out = new ArrayList<>();
        groups.forEach(g -> g.stream().filter(s -> !s.hidden()).forEach(out::add));
        return out;
    }

    /** Lets the expressions that follow see every relation added so far. */
    void showAll() {
        visible = relations.size();
    }

    /**
     * This block's FROM items that offer a visible column named {@code name}, however far the
     * clause has been read: the two sides of a USING or NATURAL join count as two.
     */
    List<Relation> relationsWithColumn(String name) {
        return relations.stream().filter(r -> r.column(name).isPresent()).toList();
    }

    List<Relation> relations() {
        return relations;
    }

    List<Item> items() {
        return items;
    }

    /** The column an unqualified name means: this block first, then the enclosing ones. */
    Value resolve(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Optional<Value> found = s.local(name);
            if (found.isPresent()) {
                return found.get();
            }
            if (s.namesRelation(name)) {
                // other engines read a bare table name as its whole row: make the query say what it means
                throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, SafeText.identifier(name)
                        + " names a table of this query, not one of its columns; qualify the column you mean.");
            }
        }
        throw Refusals.unknownColumn(name);
    }

    private boolean namesRelation(String name) {
        for (int i = 0; i < visible; i++) {
            if (sameTableName(relations.get(i).visibleName(), name)) {
                return true;
            }
        }
        return false;
    }

    /** The column an unqualified name means in this block only, if any. */
    Optional<Value> local(String name) {
        String key = Names.fold(name);
        Value found = null;
        for (List<Slot> group : groups) {
            for (Slot s : group) {
                if (s.relation() < visible && !s.hidden() && s.key().equals(key)) {
                    if (found != null) {
                        throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The column " + SafeText.identifier(name)
                                + " exists in more than one table; qualify it.");
                    }
                    found = s.value().get();
                }
            }
        }
        return Optional.ofNullable(found);
    }

    /** A qualified column: {@code qualifier.name}, or {@code schema.table.name} for a table without alias. */
    Value resolve(Optional<String> schemaName, String qualifier, String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Optional<Relation> r = s.relation(schemaName, qualifier);
            if (r.isPresent()) {
                return r.get().column(name).orElseThrow(() -> Refusals.unknownColumn(name)).value();
            }
        }
        throw new GuardException(ErrorCode.UNKNOWN_COLUMN, "The qualifier " + SafeText.identifier(qualifier)
                + " does not name a table of this query (use the alias when a table has one).");
    }

    /** The relation {@code qualifier} names among the visible ones of this block. */
    Optional<Relation> relation(Optional<String> schemaName, String qualifier) {
        Relation match = null;
        for (int i = 0; i < visible; i++) {
            Relation r = relations.get(i);
            boolean hit = sameTableName(r.visibleName(), qualifier)
                    && (schemaName.isEmpty() || r.schemaName().map(sn -> sameTableName(sn, schemaName.get())).orElse(false));
            if (hit) {
                if (match != null) {
                    throw new GuardException(ErrorCode.AMBIGUOUS_COLUMN, "The table name " + SafeText.identifier(qualifier)
                            + " is ambiguous; use aliases.");
                }
                match = r;
            }
        }
        return Optional.ofNullable(match);
    }
}
