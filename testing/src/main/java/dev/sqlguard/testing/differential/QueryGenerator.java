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
    /** A generated statement, and the hidden column name its probe pair uses. */
    public record Case(long seed, Sql tree, String hidden, boolean ordered) {
        /** The text with {@code name} where the probe goes. */
        public String sql(String name) {
            return tree.render().replace(Sql.PROBE, name);
        }

        /** The text of a differential case (it holds no probe). */
        public String sql() {
            return sql("pz");
        }

        /** The same case with another tree (a shrunk one). */
        Case with(Sql other) {
            return new Case(seed, other, hidden, ordered);
        }
    }

    private record Col(String ref, char type, String name) {
    }

    private record Source(Sql text, List<Col> cols, Set<String> hidden) {
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
        Sql tree = statement();
        List<String> names = new ArrayList<>(hidden.isEmpty() ? Set.of("password") : hidden);
        return new Case(seed, tree, names.get(random.nextInt(names.size())), ordered);
    }

    // ------------------------------------------------------------------ statements

    private Sql statement() {
        int shape = random.nextInt(10);
        if (shape < 1) {
            return setOperation();
        }
        Source with = null;
        Sql prefix = Sql.of("");
        if (random.nextInt(7) == 0) {
            String name = "w" + (fresh++);
            Select inner = select(source(1), 1, false, false);
            with = new Source(Sql.of(name), cols(name, inner.items, false), inner.hidden);
            prefix = Sql.of("WITH " + name + " AS (", inner.text, ") ");
        }
        Source from = with != null && random.nextBoolean() ? with : source(0);
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
        List<Sql> rendered = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            Item it = items.get(i);
            rendered.add(Sql.of(i == 0 ? "" : ", ", it.expr, it.alias == null ? "" : " AS " + it.alias));
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
            parts.add(Sql.of(" WHERE ", expr('B', 3, cols, probeNames(items))).optional());
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
                    order.add(Sql.of(orderKey(orderCols, items), direction(), ", ").optional());
                }
            }
            for (int i = 1; i <= items.size(); i++) {
                order.add((i == 1 ? "" : ", ") + i);
            }
            parts.add(Sql.of(order.toArray()));
            if (random.nextInt(3) == 0) {
                parts.add(Sql.of(limit(1 + random.nextInt(6))).optional());
            }
        }
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
            return Sql.of(String.valueOf(1 + items.indexOf(item)));
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
        int way = random.nextInt(3);
        String function = way == 0 ? "count(*)" : way == 1 ? "rank()" : "dense_rank()";
        String spec = way == 0 ? "PARTITION BY " + name : way == 1 ? "ORDER BY " + name : "PARTITION BY " + bare(c) + " ORDER BY " + name + " DESC";
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
        switch (random.nextInt(5)) {
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

    private List<String> probeNames(List<Item> items) {
        return probe ? List.of(Sql.PROBE) : List.of();
    }

    // ------------------------------------------------------------------ sources

    private Source source(int depth) {
        int way = random.nextInt(depth > 0 ? 6 : grammar.lateral() ? 13 : 12);
        Set<String> claimsHidden = Set.of("ssn");
        Set<String> usersHidden = Set.of("password", "api_key");
        switch (way) {
            case 0, 1 -> {
                boolean aliased = random.nextBoolean();
                String q = aliased ? "c" : "claims";
                return new Source(Sql.of(aliased ? "claims c" : "claims"), claimsCols(q, false), claimsHidden);
            }
            case 2 -> {
                return new Source(Sql.of("regions"), List.of(new Col("region", 'T', "region"), new Col("manager", 'T', "manager")), Set.of());
            }
            case 3 -> {
                return new Source(Sql.of("users u"), List.of(new Col("u.id", 'I', "id"), new Col("name", 'T', "name")), usersHidden);
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
                return new Source(Sql.of("(", s.text, ") " + name), cols(name, s.items, random.nextBoolean()), s.hidden);
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
        cols.add(new Col(mergedRegion ? "region" : qualify || !q.equals("claims") && !q.equals("c") ? q + ".region" : "region", 'T', "region"));
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
            default -> leaf(type, cols, probes);
        };
        return out;
    }

    private Sql leaf(char type, List<Col> cols, List<String> probes) {
        if (!probes.isEmpty() && random.nextInt(12) == 0) {
            return Sql.of(probes.get(0));
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
            case 'T' -> Sql.of(TEXTS[random.nextInt(TEXTS.length)]);
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
        int way = random.nextInt(9);
        return switch (way) {
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
                Sql b = expr('B', depth - 1, cols, probes);
                Sql a = expr('I', depth - 1, cols, probes);
                Sql c = expr('I', depth - 1, cols, probes);
                yield Sql.of("CASE WHEN ", b, " THEN ", a, " ELSE ", c, " END").orSimpler(List.of(a, c));
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
            default -> {
                Sql b = expr('B', depth - 1, cols, probes);
                Sql a = expr('N', depth - 1, cols, probes);
                Sql c = expr('N', depth - 1, cols, probes);
                yield Sql.of("CASE WHEN ", b, " THEN ", a, " ELSE ", c, " END").orSimpler(List.of(a, c));
            }
        };
    }

    private Sql textExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(8);
        if (way < 2 && grammar.concat()) {
            Sql l = expr('T', depth - 1, cols, probes);
            char rt = grammar.concatAnything() && random.nextBoolean() ? 'I' : 'T';
            Sql r = expr(rt, depth - 1, cols, probes);
            return binary('T', l, "||", r, 'T', rt);
        }
        return switch (way) {
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
                Sql b = expr('B', depth - 1, cols, probes);
                Sql a = expr('T', depth - 1, cols, probes);
                Sql c = expr('T', depth - 1, cols, probes);
                yield Sql.of("CASE WHEN ", b, " THEN ", a, " ELSE ", c, " END").orSimpler(List.of(a, c));
            }
            default -> Sql.of("coalesce(", expr('T', depth - 1, cols, probes), ", ", literal('T'), ")");
        };
    }

    private Sql boolExpr(int depth, List<Col> cols, List<String> probes) {
        int way = random.nextInt(16);
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
