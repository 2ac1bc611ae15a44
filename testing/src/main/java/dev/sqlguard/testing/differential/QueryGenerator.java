package dev.sqlguard.testing.differential;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Random, well-typed SELECTs over {@link dev.sqlguard.testing.ContractDataset}'s plain columns, in one
 * engine's {@link Grammar}, reproducible from a seed. Expressions mix the grammar's operators at random
 * depth, written without parentheses as often as with them, so that the engine's precedence decides
 * what they mean. Output aliases shadow input columns and are used by name in {@code GROUP BY},
 * {@code HAVING}, {@code ORDER BY} (by name, alias, position and expression), {@code DISTINCT ON},
 * {@code QUALIFY} and window clauses (inline and named); sources are tables, {@code USING} and {@code NATURAL} joins, {@code LATERAL}
 * derived tables and CTEs; set operations and subqueries appear too.
 *
 * <p>Every ordered query is ordered completely (its keys, then every output position), so that rows
 * can be compared in order; no {@code LIMIT} comes without such an order.
 *
 * <p>A <em>probe</em> case ({@link #probe}) also writes {@link Sql#PROBE} where a name goes: an output
 * alias and the names that use it, a derived table's column joined {@code NATURAL}ly, a bare name that
 * nothing defines. Written once as a hidden column's name and once as a name that exists nowhere, the
 * two texts must give the same outcome.
 */
public final class QueryGenerator {
    /**
     * A generated statement, and the hidden column name its probe pair uses; {@code spelling} is how a probe writes the
     * name: as given, in upper case, or quoted with {@code quote} (both names of a pair alike).
     */
    public record Case(long seed, Sql tree, String hidden, boolean ordered, int spelling, String quote) {
        /** The text with {@code name} where the probe goes. */
        public String sql(String name) {
            String spelled = switch (spelling) {
                case 1 -> name.toUpperCase(java.util.Locale.ROOT);
                case 2 -> quote + name + quote;
                default -> name;
            };
            return tree.render().replace(Sql.PROBE, spelled);
        }

        /** The text of a differential case (it holds no probe). */
        public String sql() {
            return sql("pz");
        }

        /** The same case with another tree (a shrunk one). */
        Case with(Sql other) {
            return new Case(seed, other, hidden, ordered, spelling, quote);
        }
    }

    private record Col(String ref, char type, String name) {
    }

    /**
     * A source, and what a {@code *} over it gives: {@code star} is the name that qualifies it ({@code s3.*}), or null when
     * the generator writes no star over it; {@code starCount} the columns it expands to; {@code starSafe} that every one
     * is visible to the guard, so that raw and guarded expand it alike (a table that hides a column expands raw to more:
     * such a star is written only in probe pairs, which run guarded both times).
     */
    private record Source(Sql text, List<Col> cols, Set<String> hidden, String star, int starCount, boolean starSafe) {
        Source(Sql text, List<Col> cols, Set<String> hidden) {
            this(text, cols, hidden, null, 0, false);
        }
    }

    private record Item(Sql expr, char type, String alias, boolean aggregate) {
    }

    private static final String[] TEXTS = {"'north'", "'south'", "'APPROVED'", "'alice'", "'x'", "'DENIED'", "'Wes'"};
    private static final String[] PATTERNS = {"'n%'", "'%o%'", "'A%'", "'%s'", "'_e%'", "'%'"};

    private final Grammar grammar;
    private Random random;
    private boolean probe;
    private int fresh;
    private Set<String> hidden;
    private boolean ordered;
    /** The {@code WINDOW} clause a window function of the select being written named, or null. */
    private Sql windowClause;
    /** How many outputs a {@code *} puts before the select list's items in the select being written (positions shift). */
    private int positionOffset;

    public QueryGenerator(Grammar grammar) {
        this.grammar = requireNonNull(grammar, "grammar is null");
    }

    /** The grammar this generator writes. */
    public Grammar grammar() {
        return grammar;
    }

    /** A generator of the same grammar with state of its own (one per thread: a generator is not thread-safe). */
    public QueryGenerator fresh() {
        return new QueryGenerator(grammar);
    }

    /** The differential case of {@code seed}. */
    public Case next(long seed) {
        return generate(seed, false);
    }

    /** The probe case of {@code seed}. */
    public Case probe(long seed) {
        return generate(seed, true);
    }

    private Case generate(long seed, boolean probing) {
        this.random = new Random(seed);
        this.probe = probing;
        this.fresh = 0;
        this.hidden = new LinkedHashSet<>();
        this.ordered = false;
        this.positionOffset = 0;
        Sql tree = statement();
        List<String> names = new ArrayList<>(hidden.isEmpty() ? Set.of("password") : hidden);
        String name = names.get(random.nextInt(names.size()));
        // a probe spells the name plainly two times in four, else in upper case or quoted
        int spelling = probing ? Math.max(0, random.nextInt(4) - 1) : 0;
        return new Case(seed, tree, name, ordered, spelling, grammar.quote());
    }

    // ------------------------------------------------------------------ statements

    private Sql statement() {
        int shape = random.nextInt(10);
        if (shape < 1) {
            return setOperation();
        }
        Source with = null;
        Source recursive = null;
        Sql prefix = Sql.of("");
        if (random.nextInt(12) == 0) {
            // a recursive CTE: counting up, or walking claims from id to id with a depth counter (a row filter applies at
            // every step; PostgreSQL's guard takes a recursion only with a counter it can bound)
            boolean walk = random.nextBoolean();
            String body = walk
                    ? "(i, d) AS (SELECT min(id), 1 FROM claims UNION ALL SELECT (SELECT min(c9.id) FROM claims c9 WHERE c9.id > r.i),"
                            + " r.d + 1 FROM r WHERE r.i IS NOT NULL AND r.d < " + (3 + random.nextInt(6)) + ")"
                    : "(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < " + (2 + random.nextInt(4)) + ")";
            prefix = Sql.of("WITH RECURSIVE r " + body + " ");
            Set<String> hiddenHere = walk ? Set.of("ssn") : Set.of();
            if (random.nextBoolean()) {
                recursive = new Source(Sql.of("r"), List.of(new Col("i", 'I', "i")), hiddenHere, "r", walk ? 2 : 1, true);
            } else {
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col("r.i", 'I', "i"));
                recursive = new Source(Sql.of("claims c JOIN r ON r.i = c.id"), cols, Set.of("ssn"));
            }
        } else if (random.nextInt(7) == 0) {
            String name = "w" + (fresh++);
            Select inner = select(source(1), 1, false, false);
            with = new Source(Sql.of(name), cols(name, inner.items, false), inner.hidden, name, inner.items.size(), true);
            prefix = Sql.of("WITH " + name + " AS (", inner.text, ") ");
        }
        Source from = recursive != null ? recursive : with != null && random.nextBoolean() ? with : source(0);
        Select top = select(from, 0, shape < 4, true);
        return Sql.of(prefix, top.text);
    }

    private Sql setOperation() {
        char type = pick("ITN");
        Sql left = single(type);
        Sql right = single(type);
        String[] ops = {"UNION", "UNION ALL", "INTERSECT", "EXCEPT"};
        Sql order = Sql.of(" ORDER BY 1", random.nextInt(3) == 0 ? Sql.of(" LIMIT " + (1 + random.nextInt(5))).optional() : Sql.EMPTY);
        ordered = random.nextBoolean();
        return Sql.of(left, " " + ops[random.nextInt(ops.length)] + " ", right, ordered ? order : Sql.EMPTY);
    }

    /** {@code SELECT <one value of type> AS v FROM <table> [WHERE ...]}. */
    private Sql single(char type) {
        Source s = source(2);
        List<Col> cols = s.cols;
        Sql where = random.nextBoolean() ? Sql.of(" WHERE ", expr('B', 2, cols, List.of())).optional() : Sql.EMPTY;
        return Sql.of("SELECT ", expr(type, 2, cols, List.of()), " AS v FROM ", s.text, where);
    }

    private record Select(Sql text, List<Item> items, Set<String> hidden) {
    }

    /**
     * One SELECT over {@code from}. {@code depth} above 0 is a derived table or CTE body: unordered,
     * with every output aliased.
     */
    private Select select(Source from, int depth, boolean grouped, boolean outermost) {
        List<Col> cols = from.cols;
        hidden.addAll(from.hidden);
        List<Item> items = new ArrayList<>();
        List<Sql> keys = new ArrayList<>();
        // what ORDER BY may name besides the outputs: every input column, or in a grouped query the grouped ones only (an
        // ungrouped one is any row's value on MariaDB, which then differs by plan, not by reading)
        List<Col> orderCols = grouped ? new ArrayList<>() : cols;
        Set<String> used = new LinkedHashSet<>();
        if (grouped) {
            int n = 1 + random.nextInt(2);
            for (int i = 0; i < n; i++) {
                Col c = cols.get(random.nextInt(cols.size()));
                boolean plainKey = random.nextInt(3) != 0;
                Sql key = plainKey ? Sql.of(c.ref) : expr(c.type, 1, List.of(c), List.of());
                if (plainKey) {
                    orderCols.add(c);
                }
                keys.add(key);
                items.add(new Item(key, c.type, alias(cols, used, depth > 0), false));
            }
            int m = 1 + random.nextInt(2);
            for (int i = 0; i < m; i++) {
                char[] t = new char[1];
                Sql agg = aggregate(cols, t);
                items.add(new Item(agg, t[0], alias(cols, used, depth > 0), true));
            }
            if (depth == 0 && random.nextInt(6) == 0) {
                // a window over the groups: its ORDER BY or argument is an aggregate of the select list
                Item agg = items.get(keys.size() + random.nextInt(m));
                Sql w = switch (random.nextInt(3)) {
                    case 0 -> Sql.of("rank() OVER (ORDER BY ", agg.expr, " DESC)");
                    case 1 -> Sql.of("count(*) OVER ()");
                    default -> Sql.of("dense_rank() OVER (ORDER BY ", keys.get(0), ")");
                };
                items.add(new Item(w.orSimpler(List.of(Sql.of("1"))), 'I', alias(cols, used, false), false));
            }
        } else {
            int n = 1 + random.nextInt(3);
            for (int i = 0; i < n; i++) {
                char type = pick("IITNBD");
                items.add(new Item(expr(type, 3, cols, List.of()), type, alias(cols, used, depth > 0), false));
            }
            if (depth == 0 && random.nextInt(5) == 0) {
                windowClause = null;
                items.add(new Item(window(cols, items), 'I', alias(cols, used, false), false));
            }
        }
        // a star before the items, at the outermost level only (a derived table's outputs are its items)
        String star = null;
        int starCount = 0;
        if (outermost && !grouped && from.star() != null && (probe || from.starSafe()) && random.nextInt(6) == 0) {
            star = random.nextBoolean() ? "*" : from.star() + ".*";
            starCount = from.starCount();
        }
        positionOffset = starCount;
        List<Sql> rendered = new ArrayList<>();
        if (star != null) {
            rendered.add(Sql.of(star));
        }
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            rendered.add(Sql.of(i == 0 && star == null ? "" : ", ", it.expr, it.alias == null ? "" : " AS " + it.alias));
        }
        boolean distinctOn = !grouped && depth == 0 && grammar.distinctOn() && random.nextInt(8) == 0;
        boolean distinct = !distinctOn && random.nextInt(10) == 0;
        Sql distinctKey = distinctOn ? orderKey(cols, items) : null;
        List<Object> parts = new ArrayList<>();
        parts.add("SELECT ");
        if (distinctOn) {
            parts.add(Sql.of("DISTINCT ON (", distinctKey, ") "));
        } else if (distinct) {
            parts.add(Sql.of("DISTINCT ").optional());
        }
        parts.addAll(rendered);
        parts.add(" FROM ");
        parts.add(from.text);
        if (random.nextInt(2) == 0) {
            parts.add(Sql.of(" WHERE ", expr('B', 3, cols, probeNames(from))).optional());
        }
        if (grouped) {
            List<Sql> groupBy = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                Item it = items.get(i);
                int way = random.nextInt(4);
                Sql by = way == 0 ? Sql.of(String.valueOf(i + 1)) : way == 1 && it.alias != null ? Sql.of(it.alias) : keys.get(i);
                groupBy.add(Sql.of(i == 0 ? "" : ", ", by));
            }
            parts.add(Sql.of(" GROUP BY ", groupingSets(Sql.of(groupBy.toArray()))));
            if (random.nextInt(3) == 0) {
                parts.add(Sql.of(" HAVING ", having(cols, items)).optional());
            }
        }
        if (windowClause != null && depth == 0) {
            parts.add(windowClause);
            windowClause = null;
        }
        if (grammar.qualify() && depth == 0 && !grouped && random.nextInt(8) == 0) {
            parts.add(Sql.of(" QUALIFY ", qualify(cols, items)).optional());
        }
        boolean orders = outermost && (distinctOn || random.nextInt(2) == 0);
        if (outermost) {
            this.ordered = orders;
        }
        if (orders) {
            List<Object> order = new ArrayList<>();
            order.add(" ORDER BY ");
            if (distinctOn) {
                order.add(distinctKey);
                order.add(", ");
            } else {
                int n = random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    // in a grouped query a key may be an aggregate the select list does not hold
                    Sql key = grouped && random.nextInt(4) == 0 ? aggregate(cols, new char[1]) : orderKey(orderCols, items);
                    order.add(Sql.of(key, direction(), ", ").optional());
                }
            }
            for (int i = 1; i <= starCount + items.size(); i++) {
                order.add((i == 1 ? "" : ", ") + i);
            }
            parts.add(Sql.of(order.toArray()));
            if (random.nextInt(3) == 0) {
                parts.add(Sql.of(limit(1 + random.nextInt(6))).optional());
            }
        }
        positionOffset = 0;
        return new Select(Sql.of(parts.toArray()), items, from.hidden);
    }

    /** {@code LIMIT n}, a third of the time with an {@code OFFSET} where the grammar puts it. */
    private String limit(int n) {
        if (random.nextInt(3) != 0) {
            return " LIMIT " + n;
        }
        int offset = random.nextInt(4);
        return grammar.offsetFirst() ? " OFFSET " + offset + " LIMIT " + n : " LIMIT " + n + " OFFSET " + offset;
    }

    /**
     * The GROUP BY keys as written, or (where the grammar has them, one time in five) the same keys under
     * {@code ROLLUP}, {@code CUBE} or {@code GROUPING SETS}, or MySQL's {@code WITH ROLLUP}: the keys are read the
     * same way inside them (positions, output aliases, expressions), and the added rows hold NULL keys.
     */
    private Sql groupingSets(Sql keys) {
        if (grammar.groupingSets() && random.nextInt(5) == 0) {
            return switch (random.nextInt(3)) {
                case 0 -> Sql.of("ROLLUP (", keys, ")");
                case 1 -> Sql.of("CUBE (", keys, ")");
                default -> Sql.of("GROUPING SETS ((", keys, "), ())");
            };
        }
        if (grammar.withRollup() && random.nextInt(5) == 0) {
            return Sql.of(keys, " WITH ROLLUP");
        }
        return keys;
    }

    private String direction() {
        int d = random.nextInt(4);
        String dir = d == 0 ? " DESC" : d == 1 ? " ASC" : "";
        if (grammar.nullsOrdering() && random.nextInt(6) == 0) {
            dir += random.nextBoolean() ? " NULLS FIRST" : " NULLS LAST";
        }
        return dir;
    }

    /** An ORDER BY or DISTINCT ON key: a position, an output alias, an input column, or an expression over names. */
    private Sql orderKey(List<Col> cols, List<Item> items) {
        int way = random.nextInt(5);
        Item item = items.get(random.nextInt(items.size()));
        if (way == 0 || cols.isEmpty() && item.alias == null) {
            return Sql.of(String.valueOf(1 + positionOffset + items.indexOf(item)));
        }
        if (way == 1 && item.alias != null || cols.isEmpty()) {
            return Sql.of(item.alias);
        }
        if (way == 2) {
            Col c = cols.get(random.nextInt(cols.size()));
            return Sql.of(bare(c));
        }
        // an expression over names that may be outputs or inputs: id + 0, upper(region), - amount
        String name = item.alias != null && random.nextBoolean() ? item.alias : bare(cols.get(random.nextInt(cols.size())));
        char type = item.alias != null && name.equals(item.alias) ? item.type : typeOf(cols, name);
        return switch (type) {
            case 'I', 'N' -> Sql.of(random.nextBoolean() ? name + " + 0" : "0 - " + name).orSimpler(List.of(Sql.of(name)));
            case 'T' -> grammar.collation() != null && random.nextBoolean()
                    ? Sql.of(name + " COLLATE " + grammar.collation()).orSimpler(List.of(Sql.of(name)))
                    : Sql.of("upper(" + name + ")").orSimpler(List.of(Sql.of(name)));
            default -> Sql.of(name);
        };
    }

    private static char typeOf(List<Col> cols, String name) {
        for (Col c : cols) {
            if (c.name.equals(name)) {
                return c.type;
            }
        }
        return 'T';
    }

    private static String bare(Col c) {
        return c.ref.contains(".") ? c.ref : c.name;
    }

    private Sql having(List<Col> cols, List<Item> items) {
        int way = random.nextInt(3);
        Item item = items.get(random.nextInt(items.size()));
        if (way == 0 && item.alias != null && (item.type == 'I' || item.type == 'N')) {
            return Sql.of(item.alias + " > " + random.nextInt(20));
        }
        if (way == 1) {
            return Sql.of("count(*) > " + random.nextInt(10));
        }
        char[] t = new char[1];
        Sql agg = aggregate(cols, t);
        return t[0] == 'I' || t[0] == 'N' ? Sql.of(agg, " >= ", literal(t[0])) : Sql.of(agg, " IS NOT NULL");
    }

    private Sql qualify(List<Col> cols, List<Item> items) {
        Item item = items.get(random.nextInt(items.size()));
        if (item.alias != null && item.type == 'I' && random.nextBoolean()) {
            return Sql.of(item.alias + " > " + random.nextInt(10));
        }
        Col c = cols.get(random.nextInt(cols.size()));
        return Sql.of("rank() OVER (ORDER BY " + bare(c) + ") <= " + (1 + random.nextInt(10)));
    }

    /** A deterministic window: a partition count or sum, or a rank (ties share it). */
    private Sql window(List<Col> cols, List<Item> items) {
        Item item = items.get(random.nextInt(items.size()));
        Col c = cols.get(random.nextInt(cols.size()));
        boolean alias = item.alias != null && random.nextBoolean();
        String name = alias ? item.alias : bare(c);
        int way = random.nextInt(7);
        // every frame is deterministic: a whole partition, or RANGE up to the current row's peers
        Col number = cols.stream().filter(x -> x.type == 'I').findFirst().orElse(null);
        String counted = number == null ? "*" : bare(number);
        String function = switch (way) {
            case 0, 5 -> "count(*)";
            case 1 -> "rank()";
            case 2 -> "dense_rank()";
            case 3 -> "count(" + bare(c) + ")";
            case 4 -> number == null ? "count(*)" : "sum(" + counted + ")";
            default -> number == null ? "count(*)" : "max(" + counted + ")";
        };
        String spec = switch (way) {
            case 0, 4 -> "PARTITION BY " + name;
            case 1, 6 -> "ORDER BY " + name;
            case 2 -> "PARTITION BY " + bare(c) + " ORDER BY " + name + " DESC";
            case 3 -> "PARTITION BY " + bare(c) + " ORDER BY " + name + " RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW";
            default -> "ORDER BY " + name + " ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING";
        };
        if (grammar.namedWindow() && random.nextInt(3) == 0) {
            // a named window: its definition is read where the WINDOW clause stands, after WHERE and GROUP BY
            windowClause = Sql.of(" WINDOW w AS (" + spec + ")");
            return Sql.of(function + " OVER w");
        }
        return Sql.of(function + " OVER (" + spec + ")");
    }

    private Sql aggregate(List<Col> cols, char[] type) {
        Sql agg = plainAggregate(cols, type);
        if (grammar.aggregateFilter() && random.nextInt(5) == 0) {
            return Sql.of(agg, " FILTER (WHERE ", expr('B', 1, cols, List.of()), ")").orSimpler(List.of(agg));
        }
        return agg;
    }

    private Sql plainAggregate(List<Col> cols, char[] type) {
        Col c = cols.get(random.nextInt(cols.size()));
        switch (random.nextInt(9)) {
            case 5 -> {
                // an average, rounded: a double's last digits may differ by the order the rows were summed in
                Col n = numeric(cols);
                type[0] = 'N';
                return n == null ? Sql.of("count(*)") : Sql.of("round(avg(", expr(n.type, 1, List.of(n), List.of()), "), 2)");
            }
            case 6 -> {
                type[0] = 'I';
                return Sql.of("count(DISTINCT ", expr(c.type == 'B' ? 'I' : c.type, 1, cols, List.of()), ")");
            }
            case 7 -> {
                Col n = numeric(cols);
                type[0] = n == null ? 'I' : n.type;
                return n == null ? Sql.of("count(*)") : Sql.of(random.nextBoolean() ? "sum(DISTINCT " : "max(DISTINCT ", Sql.of(n.ref), ")");
            }
            case 8 -> {
                type[0] = 'T';
                if (grammar.stringAgg() == null) {
                    return Sql.of("min(", expr('T', 1, cols, List.of()), ")");
                }
                Col t = cols.stream().filter(x -> x.type == 'T').findFirst().orElse(null);
                String text = t == null ? "'x'" : t.ref;
                return Sql.of(grammar.stringAgg().formatted(text)).orSimpler(List.of(Sql.of("min(" + text + ")")));
            }
            case 0 -> {
                type[0] = 'I';
                return Sql.of("count(*)");
            }
            case 1 -> {
                type[0] = 'I';
                return Sql.of("count(", expr(c.type, 1, cols, List.of()), ")");
            }
            case 2 -> {
                type[0] = c.type == 'B' ? 'I' : c.type;
                return c.type == 'B' ? Sql.of("count(*)") : Sql.of("max(", expr(c.type, 1, cols, List.of()), ")");
            }
            case 3 -> {
                type[0] = c.type == 'B' ? 'I' : c.type;
                return c.type == 'B' ? Sql.of("count(*)") : Sql.of("min(", Sql.of(c.ref), ")");
            }
            default -> {
                char t = numeric(cols) == null ? 'I' : numeric(cols).type;
                type[0] = t;
                Col n = numeric(cols);
                return n == null ? Sql.of("count(*)") : Sql.of("sum(", expr(n.type, 1, List.of(n), List.of()), ")");
            }
        }
    }

    private Col numeric(List<Col> cols) {
        List<Col> n = cols.stream().filter(c -> c.type == 'I' || c.type == 'N').toList();
        return n.isEmpty() ? null : n.get(random.nextInt(n.size()));
    }

    /** An output alias: none, an input column's name (shadowing it), a fresh name, or the probe. */
    private String alias(List<Col> cols, Set<String> used, boolean required) {
        for (int attempt = 0; attempt < 4; attempt++) {
            int way = random.nextInt(10);
            String name;
            if (way < 2 && !required) {
                return null;
            } else if (way < 6) {
                name = cols.get(random.nextInt(cols.size())).name;
            } else if (way < 8 || !probe) {
                name = "x" + (fresh++);
            } else {
                name = Sql.PROBE;
            }
            if (used.add(name)) {
                return name;
            }
        }
        String name = "x" + (fresh++);
        used.add(name);
        return name;
    }

    /** The names a probe's expressions may read: the probe bare, and qualified by the source's name where it has one. */
    private List<String> probeNames(Source from) {
        if (!probe) {
            return List.of();
        }
        return from.star() == null ? List.of(Sql.PROBE) : List.of(Sql.PROBE, from.star() + "." + Sql.PROBE);
    }

    // ------------------------------------------------------------------ sources

    private Source source(int depth) {
        int way = random.nextInt(depth > 0 ? 6 : 16);
        if (way == 12 && !grammar.lateral() || way == 15 && !grammar.valuesTable()) {
            way = 10;
        }
        Set<String> claimsHidden = Set.of("ssn");
        Set<String> usersHidden = Set.of("password", "api_key");
        switch (way) {
            case 0, 1 -> {
                // the second way writes the name in other letter case (no draw of its own): an alias in upper case, used so
                // (every engine runs it), or the table as Claims (MariaDB on Linux knows no such table; the others fold it)
                boolean aliased = random.nextBoolean();
                String q = aliased ? (way == 0 ? "c" : "C") : (way == 0 ? "claims" : "Claims");
                return new Source(Sql.of(aliased ? "claims " + q : q), claimsCols(q, false), claimsHidden, q, 5, false);
            }
            case 2 -> {
                return new Source(Sql.of("regions"), List.of(new Col("region", 'T', "region"), new Col("manager", 'T', "manager")), Set.of(),
                        "regions", 2, true);
            }
            case 3 -> {
                return new Source(Sql.of("users u"), List.of(new Col("u.id", 'I', "id"), new Col("name", 'T', "name")), usersHidden, "u", 2, false);
            }
            case 4 -> {
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col("manager", 'T', "manager"));
                return new Source(Sql.of("claims c JOIN regions r ON c.region = r.region"), cols, claimsHidden);
            }
            case 5 -> {
                List<Col> cols = claimsCols("claims", true);
                cols.add(new Col("manager", 'T', "manager"));
                String how = random.nextBoolean() || !grammar.naturalJoin() ? "claims JOIN regions USING (region)" : "claims NATURAL JOIN regions";
                if (grammar.fullJoin() && random.nextInt(4) == 0) {
                    how = "claims FULL JOIN regions USING (region)";
                }
                return new Source(Sql.of(how), cols, claimsHidden);
            }
            case 6 -> {
                List<Col> cols = claimsCols("c", true);
                cols.add(new Col("name", 'T', "name"));
                return new Source(Sql.of(random.nextBoolean() && grammar.naturalJoin() ? "claims c NATURAL JOIN users" : "claims c JOIN users USING (id)"), cols,
                        Set.of("ssn", "password", "api_key"));
            }
            case 7 -> {
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col("name", 'T', "name"));
                return new Source(Sql.of("claims c LEFT JOIN users u ON u.id = c.id"), cols, Set.of("ssn", "password", "api_key"));
            }
            case 8, 9 -> {
                Source inner = source(depth + 1);
                Select s = select(inner, depth + 1, random.nextInt(3) == 0, false);
                String name = "s" + (fresh++);
                return new Source(Sql.of("(", s.text, ") " + name), cols(name, s.items, random.nextBoolean()), s.hidden, name, s.items.size(), true);
            }
            case 13 -> {
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col("name", 'T', "name"));
                return new Source(Sql.of("users u RIGHT JOIN claims c ON u.id = c.id"), cols, Set.of("ssn", "password", "api_key"));
            }
            case 14 -> {
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col("manager", 'T', "manager"));
                return new Source(Sql.of("claims c CROSS JOIN regions r"), cols, claimsHidden);
            }
            case 15 -> {
                // a list of values as a table, its columns named after its alias; alone, or joined USING a column of claims
                String values = "(VALUES (1, 'north'), (2, 'EAST'), (3, 'x')) v (k, region)";
                if (random.nextBoolean()) {
                    return new Source(Sql.of(values), List.of(new Col("v.k", 'I', "k"), new Col("region", 'T', "region")), Set.of(), "v", 2, true);
                }
                List<Col> cols = claimsCols("claims", true);
                cols.add(new Col("k", 'I', "k"));
                return new Source(Sql.of("claims JOIN " + values + " USING (region)"), cols, claimsHidden);
            }
            case 12 -> {
                // a LATERAL derived table reading the column before it; in a probe its output is named like a hidden
                // column of the table beside it, and the query's bare names may read it
                String k = probe ? Sql.PROBE : "k";
                List<Col> cols = claimsCols("c", false);
                cols.add(new Col(k, 'I', k));
                String inner = random.nextBoolean() ? "SELECT count(*) AS " + k + " FROM users u4 WHERE u4.id < c.id"
                        : "SELECT max(u4.id) AS " + k + " FROM users u4 WHERE u4.name <> c.status";
                return new Source(Sql.of("claims c, LATERAL (" + inner + ") l"), cols, claimsHidden);
            }
            default -> {
                // a derived column joined NATURALly: with the probe's name it would join on a hidden column; without
                // NATURAL, joined USING the probe's name, or ON it written bare (the hidden column would make it ambiguous)
                if (probe) {
                    String join = grammar.naturalJoin() ? "users u NATURAL JOIN (SELECT 1 AS " + Sql.PROBE + ") p"
                            : random.nextBoolean() ? "users u JOIN (SELECT 1 AS " + Sql.PROBE + ") p USING (" + Sql.PROBE + ")"
                            : "users u JOIN (SELECT 1 AS " + Sql.PROBE + ") p ON " + Sql.PROBE + " <= u.id";
                    return new Source(Sql.of(join), List.of(new Col("u.id", 'I', "id"), new Col("name", 'T', "name")), usersHidden);
                }
                return new Source(Sql.of(grammar.naturalJoin() ? "regions NATURAL JOIN (SELECT 'north' AS region, 1 AS k) p"
                        : "regions JOIN (SELECT 'north' AS region, 1 AS k) p USING (region)"),
                        List.of(new Col("region", 'T', "region"), new Col("manager", 'T', "manager"), new Col("k", 'I', "k")), Set.of());
            }
        }
    }

    /** The columns of claims; {@code mergedRegion}: region is a USING/NATURAL column, written bare. */
    private List<Col> claimsCols(String q, boolean mergedRegion) {
        boolean qualify = random.nextInt(3) == 0;
        List<Col> cols = new ArrayList<>();
        cols.add(new Col(qualify ? q + ".id" : "id", 'I', "id"));
        cols.add(new Col(mergedRegion ? "region" : qualify || !q.equalsIgnoreCase("claims") && !q.equalsIgnoreCase("c") ? q + ".region" : "region", 'T', "region"));
        cols.add(new Col(qualify ? q + ".amount" : "amount", 'N', "amount"));
        cols.add(new Col(qualify ? q + ".status" : "status", 'T', "status"));
        cols.add(new Col(qualify ? q + ".created" : "created", 'D', "created"));
        return cols;
    }

    private List<Col> cols(String table, List<Item> items, boolean qualified) {
        List<Col> out = new ArrayList<>();
        for (Item it : items) {
            if (it.alias != null && !it.alias.equals(Sql.PROBE)) {
                out.add(new Col(qualified ? table + "." + it.alias : it.alias, it.type == 'B' ? 'I' : it.type, it.alias));
            }
        }
        if (out.isEmpty()) {
            out.add(new Col("1", 'I', "one"));
        }
        return out;
    }

    // ------------------------------------------------------------------ expressions

    private Sql expr(char type, int depth, List<Col> cols, List<String> probes) {
        if (depth <= 0 || random.nextInt(4) == 0) {
            return leaf(type, cols, probes);
        }
        Sql out = switch (type) {
            case 'I' -> intExpr(depth, cols, probes);
            case 'N' -> numExpr(depth, cols, probes);
            case 'T' -> textExpr(depth, cols, probes);
            case 'B' -> boolExpr(depth, cols, probes);
            case 'D' -> dateExpr(depth, cols, probes);
            default -> leaf(type, cols, probes);
        };
        return out;
    }

    private Sql leaf(char type, List<Col> cols, List<String> probes) {
        if (!probes.isEmpty() && random.nextInt(12) == 0) {
            return Sql.of(probes.get(random.nextInt(probes.size())));
        }
        List<Col> typed = cols.stream().filter(c -> c.type == type).toList();
        if (!typed.isEmpty() && random.nextInt(3) != 0) {
            return Sql.of(typed.get(random.nextInt(typed.size())).ref).orSimpler(List.of(literal(type)));
        }
        return literal(type);
    }

    private Sql literal(char type) {
        return switch (type) {
            case 'I' -> Sql.of(String.valueOf(random.nextInt(4) == 0 ? 10 * random.nextInt(7) : random.nextInt(10)));
            case 'N' -> Sql.of(random.nextBoolean() ? "30000.50" : "1.5");
            case 'T' -> {
                int k = random.nextInt(TEXTS.length);
                // where "x" is a string too, every other text is written so (no draw of its own: a seed's case keeps its shape)
                yield Sql.of(grammar.doubleQuotedStrings() && k % 2 == 1 ? '"' + TEXTS[k].substring(1, TEXTS[k].length() - 1) + '"' : TEXTS[k]);
            }
            case 'B' -> Sql.of(random.nextBoolean() ? "TRUE" : "FALSE");
            default -> Sql.of("DATE '2024-0" + (1 + random.nextInt(9)) + "-1" + random.nextInt(9) + "'");
        };
    }

    /** Wraps a composite in parentheses half of the time; it shrinks to its operands of the same type. */
    private Sql composite(Sql bare, char type, List<Sql> operands, List<Character> types) {
        Sql text = random.nextBoolean() ? Sql.of("(", bare, ")") : bare;
        List<Sql> simpler = new ArrayList<>();
        for (int i = 0; i < operands.size(); i++) {
            if (types.get(i) == type) {
                simpler.add(operands.get(i));
            }
        }
        if (text != bare) {
            simpler.add(0, bare);
        }
        simpler.add(literal(type));
        return text.orSimpler(simpler);
    }

    private Sql binary(char type, Sql l, String op, Sql r, char lt, char rt) {
        return composite(Sql.of(l, " " + op + " ", r), type, List.of(l, r), List.of(lt, rt));
    }

    private Sql intExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(14);
        return switch (way) {
            case 10 -> {
                // a field of a date, in the standard's own syntax
                Sql d = expr('D', depth - 1, cols, probes);
                yield Sql.of("EXTRACT(" + new String[] {"YEAR", "MONTH", "DAY"}[random.nextInt(3)] + " FROM ", d, ")")
                        .orSimpler(List.of(literal('I')));
            }
            case 11 -> {
                Sql needle = random.nextBoolean() ? literal('T') : expr('T', depth - 1, cols, probes);
                Sql hay = expr('T', depth - 1, cols, probes);
                yield Sql.of("POSITION(", needle, " IN ", hay, ")").orSimpler(List.of(literal('I')));
            }
            case 12 -> {
                Sql a = expr('I', depth - 1, cols, probes);
                Sql b = expr('I', depth - 1, cols, probes);
                yield Sql.of(random.nextBoolean() ? "greatest(" : "least(", a, ", ", b, ")").orSimpler(List.of(a, b));
            }
            case 13 -> {
                Sql l = expr('I', depth - 1, cols, probes);
                yield binary('I', l, "%", Sql.of(String.valueOf(2 + random.nextInt(5))), 'I', 'I');
            }
            case 0, 1, 2 -> {
                Sql l = expr('I', depth - 1, cols, probes);
                Sql r = expr('I', depth - 1, cols, probes);
                yield binary('I', l, new String[] {"+", "-", "*"}[random.nextInt(3)], r, 'I', 'I');
            }
            case 3 -> {
                Sql x = expr('I', depth - 1, cols, probes);
                yield composite(Sql.of("- ", x), 'I', List.of(x), List.of('I'));
            }
            case 4 -> {
                if (random.nextInt(3) == 0) {
                    // the simple CASE: its operand compared with each WHEN value
                    Sql x = expr('I', depth - 1, cols, probes);
                    Sql a = expr('I', depth - 1, cols, probes);
                    Sql c = expr('I', depth - 1, cols, probes);
                    yield Sql.of("CASE ", x, " WHEN ", literal('I'), " THEN ", a, " WHEN ", literal('I'), " THEN 7 ELSE ", c, " END")
                            .orSimpler(List.of(a, c));
                }
                yield searchedCase('I', depth, cols, probes);
            }
            case 9 -> {
                // a scalar subquery correlated with a text column of the query
                Col text = cols.stream().filter(c -> c.type == 'T').findFirst().orElse(null);
                yield text == null ? literal('I')
                        : Sql.of("(SELECT count(*) FROM regions r3 WHERE r3.region = " + text.ref + ")").orSimpler(List.of(literal('I')));
            }
            case 5 -> {
                Sql t = expr('T', depth - 1, cols, probes);
                yield Sql.of("length(", t, ")").orSimpler(List.of(literal('I')));
            }
            case 6 -> {
                Sql n = expr('N', depth - 1, cols, probes);
                yield cast(n, grammar.intType(), 'I');
            }
            case 7 -> random.nextBoolean() ? Sql.of("abs(", expr('I', depth - 1, cols, probes), ")")
                    : Sql.of("nullif(", expr('I', depth - 1, cols, probes), ", ", literal('I'), ")");
            default -> Sql.of("(SELECT max(u2.id) FROM users u2 WHERE u2.id < ", expr('I', depth - 1, cols, probes), ")")
                    .orSimpler(List.of(literal('I')));
        };
    }

    private Sql cast(Sql x, String type, char to) {
        if (grammar.doubleColonCast() && random.nextBoolean()) {
            return Sql.of(x, "::" + type).orSimpler(List.of(literal(to)));
        }
        return Sql.of("CAST(", x, " AS " + type + ")").orSimpler(List.of(literal(to)));
    }

    private Sql numExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(6);
        return switch (way) {
            case 0, 1 -> {
                Sql l = expr('N', depth - 1, cols, probes);
                char rt = random.nextBoolean() ? 'I' : 'N';
                Sql r = expr(rt, depth - 1, cols, probes);
                yield binary('N', l, new String[] {"+", "-", "*"}[random.nextInt(3)], r, 'N', rt);
            }
            case 2 -> {
                Sql x = expr('N', depth - 1, cols, probes);
                yield composite(Sql.of("- ", x), 'N', List.of(x), List.of('N'));
            }
            case 3 -> cast(expr('I', depth - 1, cols, probes), grammar.decimalType(), 'N');
            case 4 -> Sql.of("round(", expr('N', depth - 1, cols, probes), ", 1)").orSimpler(List.of(literal('N')));
            default -> searchedCase('N', depth, cols, probes);
        };
    }

    private Sql textExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(13);
        if (way < 2 && grammar.concat()) {
            Sql l = expr('T', depth - 1, cols, probes);
            char rt = grammar.concatAnything() && random.nextBoolean() ? 'I' : 'T';
            Sql r = expr(rt, depth - 1, cols, probes);
            return binary('T', l, "||", r, 'T', rt);
        }
        return switch (way) {
            case 8 -> {
                // TRIM in the standard's syntax: what is trimmed, from which end, FROM the text
                Sql x = expr('T', depth - 1, cols, probes);
                String how = new String[] {"", "BOTH 'n' FROM ", "LEADING 'n' FROM ", "TRAILING 'h' FROM ", "BOTH FROM "}[random.nextInt(5)];
                yield Sql.of("TRIM(" + how, x, ")").orSimpler(List.of(x));
            }
            case 9 -> {
                Sql x = expr('T', depth - 1, cols, probes);
                String forPart = random.nextBoolean() ? " FOR " + (1 + random.nextInt(3)) : "";
                yield Sql.of("SUBSTRING(", x, " FROM " + (1 + random.nextInt(3)) + forPart + ")").orSimpler(List.of(x));
            }
            case 10 -> {
                Sql x = expr('T', depth - 1, cols, probes);
                yield Sql.of("replace(", x, ", 'o', 'O')").orSimpler(List.of(x));
            }
            case 11 -> {
                Sql a = expr('T', depth - 1, cols, probes);
                Sql b = expr(random.nextBoolean() ? 'T' : 'I', depth - 1, cols, probes);
                yield Sql.of("concat(", a, ", ", b, ")").orSimpler(List.of(a));
            }
            case 12 -> cast(expr('D', depth - 1, cols, probes), grammar.textType(), 'T');
            case 2 -> Sql.of(random.nextBoolean() ? "upper(" : "lower(", expr('T', depth - 1, cols, probes), ")");
            case 3 -> cast(expr('I', depth - 1, cols, probes), grammar.textType(), 'T');
            case 6 -> Sql.of("substr(", expr('T', depth - 1, cols, probes), ", " + (1 + random.nextInt(3)) + ", 3)")
                    .orSimpler(List.of(literal('T')));
            case 7 -> {
                Sql x = expr('T', depth - 1, cols, probes);
                if (grammar.collation() == null) {
                    yield x;
                }
                // COLLATE binds tighter than every operator: x || y COLLATE c collates y alone
                yield composite(Sql.of(x, " COLLATE " + grammar.collation()), 'T', List.of(x), List.of('T'));
            }
            case 4 -> {
                if (random.nextInt(3) == 0) {
                    Sql x = expr('T', depth - 1, cols, probes);
                    Sql a = expr('T', depth - 1, cols, probes);
                    Sql c = expr('T', depth - 1, cols, probes);
                    yield Sql.of("CASE ", x, " WHEN ", literal('T'), " THEN ", a, " ELSE ", c, " END").orSimpler(List.of(a, c));
                }
                yield searchedCase('T', depth, cols, probes);
            }
            default -> Sql.of("coalesce(", expr('T', depth - 1, cols, probes), ", ", literal('T'), ")");
        };
    }

    /** {@code CASE WHEN <boolean> THEN <type> ELSE <type> END}; it shrinks to either branch. */
    private Sql searchedCase(char type, int depth, List<Col> cols, List<String> probes) {
        Sql b = expr('B', depth - 1, cols, probes);
        Sql a = expr(type, depth - 1, cols, probes);
        Sql c = expr(type, depth - 1, cols, probes);
        return Sql.of("CASE WHEN ", b, " THEN ", a, " ELSE ", c, " END").orSimpler(List.of(a, c));
    }

    private Sql dateExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(5);
        return switch (way) {
            case 0, 1 -> {
                // days added or taken away in the engine's own way: a date plus an integer, or an INTERVAL
                Sql d = expr('D', depth - 1, cols, probes);
                Sql days = Sql.of(String.format(java.util.Locale.ROOT, grammar.dayInterval(), 1 + random.nextInt(40)));
                yield binary('D', d, random.nextBoolean() ? "+" : "-", days, 'D', 'I');
            }
            case 2 -> searchedCase('D', depth, cols, probes);
            case 3 -> {
                Sql a = expr('D', depth - 1, cols, probes);
                yield Sql.of(random.nextBoolean() ? "greatest(" : "least(", a, ", ", literal('D'), ")").orSimpler(List.of(a));
            }
            default -> {
                Sql a = expr('D', depth - 1, cols, probes);
                yield Sql.of("coalesce(", a, ", ", literal('D'), ")").orSimpler(List.of(a));
            }
        };
    }

    private Sql boolExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(20);
        char t = pick("IINTD");
        switch (way) {
            case 0, 1, 2 -> {
                Sql l = expr(t, depth - 1, cols, probes);
                Sql r = expr(t, depth - 1, cols, probes);
                return binary('B', l, new String[] {"=", "<>", "<", "<=", ">", ">="}[random.nextInt(6)], r, t, t);
            }
            case 3 -> {
                // over booleans every other time a date is picked: then a misread a BETWEEN b AND c = d still type-checks
                char bt = t == 'D' && fresh % 2 == 0 ? 'B' : t;
                Sql x = expr(bt, depth - 1, cols, probes);
                Sql lo = expr(bt, depth - 1, cols, probes);
                Sql hi = expr(bt, depth - 1, cols, probes);
                return composite(Sql.of(x, random.nextInt(3) == 0 ? " NOT BETWEEN " : " BETWEEN ", lo, " AND ", hi), 'B',
                        List.of(x, lo, hi), List.of(bt, bt, bt));
            }
            case 4 -> {
                // a boolean compared with a boolean: a BETWEEN or a comparison on the left reads differently by precedence
                Sql l = expr('B', depth - 1, cols, probes);
                Sql r = expr('B', depth - 1, cols, probes);
                return binary('B', l, random.nextBoolean() ? "=" : "<>", r, 'B', 'B');
            }
            case 5 -> {
                Sql x = expr(t, depth - 1, cols, probes);
                List<Object> parts = new ArrayList<>(List.of(x, random.nextInt(3) == 0 ? " NOT IN (" : " IN ("));
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    parts.add((i == 0 ? "" : ", "));
                    parts.add(expr(t, depth - 2, cols, probes));
                }
                parts.add(")");
                return composite(Sql.of(parts.toArray()), 'B', List.of(x), List.of(t));
            }
            case 6 -> {
                Sql x = expr('T', depth - 1, cols, probes);
                List<String> ops = new ArrayList<>(List.of("LIKE", "NOT LIKE"));
                if (grammar.ilike()) {
                    ops.add("ILIKE");
                }
                if (grammar.similarTo()) {
                    ops.add("SIMILAR TO");
                }
                String pattern = PATTERNS[random.nextInt(PATTERNS.length)];
                return composite(Sql.of(x, " " + ops.get(random.nextInt(ops.size())) + " " + pattern), 'B', List.of(x), List.of('T'));
            }
            case 7 -> {
                Sql l = expr(t, depth - 1, cols, probes);
                Sql r = expr(t, depth - 1, cols, probes);
                if (!grammar.distinctFrom()) {
                    return binary('B', l, "<=>", r, t, t);
                }
                return binary('B', l, random.nextBoolean() ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM", r, t, t);
            }
            case 8 -> {
                Sql x = expr(t, depth - 1, cols, probes);
                return composite(Sql.of(x, random.nextBoolean() ? " IS NULL" : " IS NOT NULL"), 'B', List.of(x), List.of(t));
            }
            case 9, 10 -> {
                Sql x = expr('B', depth - 1, cols, probes);
                String not = grammar.bang() && random.nextInt(3) == 0 ? "!" : "NOT ";
                return composite(Sql.of(not, x), 'B', List.of(x), List.of('B'));
            }
            case 11 -> {
                Sql x = expr('I', depth - 1, cols, probes);
                return composite(Sql.of(x, " IN (SELECT u3.id FROM users u3)"), 'B', List.of(), List.of());
            }
            case 12 -> {
                Col text = cols.stream().filter(c -> c.type == 'T').findFirst().orElse(null);
                if (text == null) {
                    return literal('B');
                }
                return Sql.of("EXISTS (SELECT 1 FROM regions r2 WHERE r2.region = " + text.ref + ")").orSimpler(List.of(literal('B')));
            }
            case 16 -> {
                // LIKE with an escape character of its own
                Sql x = expr('T', depth - 1, cols, probes);
                String pattern = random.nextBoolean() ? PATTERNS[random.nextInt(PATTERNS.length)] : "'%!_%'";
                return composite(Sql.of(x, random.nextInt(3) == 0 ? " NOT LIKE " : " LIKE ", pattern + " ESCAPE '!'"), 'B', List.of(x), List.of('T'));
            }
            case 17 -> {
                // a row of two values against a subquery's rows or a row of literals
                Sql i = expr('I', depth - 1, cols, probes);
                Sql t2 = expr('T', depth - 1, cols, probes);
                return random.nextBoolean()
                        ? Sql.of("(", i, ", ", t2, ") IN (SELECT u5.id, u5.name FROM users u5)").orSimpler(List.of(literal('B')))
                        : Sql.of("(", i, ", ", t2, ") = (", literal('I'), ", ", literal('T'), ")").orSimpler(List.of(literal('B')));
            }
            case 18 -> {
                // a quantified comparison with a subquery
                String q = new String[] {"ANY", "ALL", "SOME"}[random.nextInt(3)];
                String op = new String[] {"=", "<>", "<", ">="}[random.nextInt(4)];
                if (random.nextBoolean()) {
                    Sql x = expr('I', depth - 1, cols, probes);
                    return composite(Sql.of(x, " " + op + " " + q + " (SELECT u6.id FROM users u6 WHERE u6.id < 5)"), 'B', List.of(), List.of());
                }
                Sql x = expr('T', depth - 1, cols, probes);
                return composite(Sql.of(x, " " + op + " " + q + " (SELECT r6.region FROM regions r6)"), 'B', List.of(), List.of());
            }
            case 19 -> {
                // claims read again in a subquery (a row filter must apply there too)
                Col text = cols.stream().filter(c -> c.type == 'T').findFirst().orElse(null);
                if (text == null || random.nextBoolean()) {
                    Sql x = expr('T', depth - 1, cols, probes);
                    return composite(Sql.of(x, " IN (SELECT c8.status FROM claims c8 WHERE c8.amount > 100)"), 'B', List.of(), List.of());
                }
                return Sql.of("NOT EXISTS (SELECT 1 FROM claims c8 WHERE c8.region = " + text.ref + " AND c8.amount > 1000)")
                        .orSimpler(List.of(literal('B')));
            }
            default -> {
                Sql l = expr('B', depth - 1, cols, probes);
                Sql r = expr('B', depth - 1, cols, probes);
                List<String> ops = new ArrayList<>(List.of("AND", "OR", "AND"));
                if (grammar.xor()) {
                    ops.add("XOR");
                }
                return binary('B', l, ops.get(random.nextInt(ops.size())), r, 'B', 'B');
            }
        }
    }

    private char pick(String types) {
        return types.charAt(random.nextInt(types.length()));
    }
}
