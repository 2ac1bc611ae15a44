package dev.sqlguard.duckdb;

import java.util.List;

/**
 * Cost vectors against DuckDB over the contract dataset ({@code users}, {@code regions}): the
 * hostile tests assert each is refused or stopped, and the benchmarks (through this module's
 * test-jar) measure how long each takes to refuse or stop and how much resident memory the JVM
 * needs meanwhile.
 */
public final class CostVectors {
    private CostVectors() {
    }

    /**
     * Calls that would build values or do work far beyond the limits: each must be refused
     * ({@code UNBOUNDED_COST}) before it runs, or stopped by the memory limit or the deadline.
     */
    public static List<String> amplifications() {
        String cteDoubling = nestedDoubling("SELECT name AS x FROM users", 10);
        return List.of(
                // the measured ones
                "SELECT levenshtein(repeat(name, 30000), repeat(name, 30000)) AS d FROM users",
                "SELECT length(repeat('x', 1000000000)) AS n",
                "SELECT lpad('x', 1000000000, 'y') AS v",
                "SELECT format('{:>1000000000}', 'x') AS v",
                "SELECT printf('%1000000000d', 1) AS v",
                "SELECT len(string_split(repeat(',', 100000000), ',')) AS n",
                "SELECT range(1000000000) AS v",
                "SELECT replace(name, 'a', '" + "x".repeat(50_000) + "') AS v FROM users",
                "SELECT regexp_replace(name, '.*', '" + "\\0".repeat(200) + "') AS v FROM users",
                cteDoubling,
                "SELECT len(list_transform(range(2000), lambda x: list_transform(range(2000), lambda y: x + y))) AS n",
                "WITH RECURSIVE r(n, s) AS (SELECT 1, name FROM users UNION ALL SELECT n + 1, s || s FROM r WHERE n < 40) SELECT max(length(s)) AS m FROM r",
                "WITH RECURSIVE r(n, s) AS (SELECT 1, name FROM users UNION ALL SELECT n + 1, repeat(s, 60) FROM r WHERE n < 6) SELECT max(length(s)) AS m FROM r",
                // nested inside other functions: DuckDB's binder folds constant arguments while it binds
                "SELECT length(upper(repeat('x', 1000000000))) AS n",
                "SELECT md5(lpad('x', 1000000000, 'y')) AS h",
                "SELECT [repeat('x', 1000000000)][1] IS NULL AS v",
                "SELECT coalesce(NULL, length(repeat('x', 1000000000))) AS v",
                "SELECT CASE WHEN 1 = 1 THEN length(repeat('ab', 500000000)) END AS v",
                "SELECT length(repeat('x', 1000 * 1000 * 1000)) AS n",
                "SELECT length(repeat('x', CAST('1000000000' AS INTEGER))) AS n",
                "SELECT length(repeat('x', (SELECT 1000000000))) AS n",
                "SELECT length(repeat(repeat('x', 1900), 1900)) AS n",
                "SELECT len(range(1000000000)) AS n",
                "SELECT list_sum(range(1000000000)) AS n",
                "SELECT len([x FOR x IN range(1000000000)]) AS n",
                "SELECT length(concat(lpad('a', 1000000000, 'b'), 'x')) AS n",
                "SELECT levenshtein(repeat('a', 1900), repeat('b', 1900)) AS d",
                "SELECT levenshtein(name || name, name) AS d FROM users",
                "SELECT length(printf('%0*d', 1000000000, 1)) AS n",
                "SELECT length(format('{:.{}f}', 1.5, 1000000000)) AS n",
                "SELECT length(strftime(DATE '2024-01-01', '" + "%A".repeat(1000) + "')) AS n",
                "SELECT length(regexp_replace(repeat('ab', 900), '(a)', '" + "\\1".repeat(100) + "', 'g')) AS n",
                "SELECT length(replace(repeat('a', 1900), 'a', repeat('b', 1900))) AS n",
                "SELECT length(string_agg(repeat('x', 1000000000), '')) AS n FROM users",
                "SELECT list_transform([name], lambda x: repeat(x, 1000000)) AS v FROM users",
                "SELECT list_transform([1, 2], lambda x: length(repeat('x', 1000000000))) AS v",
                "SELECT CAST(repeat('x', 1000000000) AS BLOB) IS NULL AS v",
                "SELECT {'a': repeat('x', 1000000000)}.a IS NULL AS v",
                // carriers
                "WITH x AS (SELECT repeat('x', 1000000000) AS s) SELECT length(s) AS n FROM x",
                "SELECT length(s) AS n FROM (SELECT lpad('x', 1000000000, 'y') AS s)",
                "SELECT length(v.s) AS n FROM (VALUES (repeat('x', 1000000000))) v(s)",
                "SELECT length(l.s) AS n FROM users u, LATERAL (SELECT repeat(u.name, 1000000) AS s) l",
                "WITH RECURSIVE r(n, s) AS (SELECT 1, repeat('x', 1000000000) UNION ALL SELECT n + 1, s FROM r WHERE n < 2) SELECT length(s) AS m FROM r",
                "SELECT length(repeat(x.b, 1000000)) AS n FROM users AS x(a, b, c, d)",
                "SELECT first_value(repeat(name, 100000)) OVER () AS v FROM users",
                "SELECT length(lag(repeat('x', 1000000000)) OVER (ORDER BY id)) AS v FROM users",
                "SELECT id FROM users QUALIFY length(repeat('x', 1000000000)) > row_number() OVER ()",
                "SELECT length(repeat('x', 1000000000)) AS n UNION ALL SELECT 1",
                "SELECT (SELECT length(repeat('x', 1000000000))) AS n",
                "SELECT id FROM users WHERE id IN (SELECT length(repeat('x', 1000000000)))",
                "SELECT id FROM users WHERE EXISTS (SELECT 1 WHERE length(repeat('x', 1000000000)) > 0)",
                "SELECT id FROM users WHERE length(repeat('x', 1000000000)) > 0",
                "SELECT id FROM users ORDER BY length(lpad('x', 1000000000, 'y'))",
                "SELECT count(*) AS n FROM users GROUP BY length(repeat('x', 1000000000))",
                "SELECT count(*) AS n FROM users u JOIN regions r ON length(repeat('x', 1000000000)) > 0",
                // products of two data sizes, and patterns compiled per row (red-team round of issue 24)
                "SELECT len(flatten(flatten(list_transform(l, lambda y: list_transform(l, lambda z: l))))) AS n "
                        + "FROM (SELECT list(i) AS l FROM range(200) t(i))",
                "SELECT len(flatten(list_transform(l2, lambda x: l2))) AS n FROM (SELECT list(i) AS l2 FROM range(3000) t(i))",
                "SELECT len(list_filter(l, lambda x: list_contains(l, x))) AS n FROM (SELECT list(i) AS l FROM range(50000) t(i))",
                "SELECT len([x FOR x IN l IF contains(s, x::VARCHAR)]) AS n "
                        + "FROM (SELECT list(i) AS l, string_agg(i::VARCHAR, ',') AS s FROM range(50000) t(i))",
                "SELECT count(*) AS n FROM range(2048) t(i) WHERE regexp_matches('x', '.{1000}.{1000}.{1000}' || i::VARCHAR)",
                "SELECT count(*) AS n FROM users WHERE regexp_matches(name, name || '.{1000}')",
                // stopped at run time by the memory limit rather than refused: a constant doubled 40 times
                "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 40) SELECT max(length(s)) AS m FROM r");
    }

    /**
     * Growth from a constant or an argument rather than a literal bound: a {@code format} width taken
     * from an argument ({@code {:>{}}}: with a constant width DuckDB's binder builds the value while
     * the query is checked, a width of 1,000,000,000 took 35 s and could not be interrupted; with a
     * column it runs per row), and a constant doubled through nested CTEs or a recursive CTE into
     * values thousands of times the 1,953-character bound. All are refused ({@code UNBOUNDED_COST});
     * the sizes are small enough that raw DuckDB answers them in seconds.
     */
    public static List<String> constantGrowth() {
        return List.of(
                "SELECT length(format('{:>{}}', 'x', 10000000)) AS n",
                "SELECT length(format('{:{}}', 'x', 10000000)) AS n",
                "SELECT length(format('{0:>{1}}', 'x', 10000000)) AS n",
                "SELECT length(format('{:>{}}', name, 10000000)) AS n FROM users",
                nestedDoubling("SELECT 'x' AS x", 24),
                "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r WHERE n < 25) SELECT max(length(s)) AS m FROM r",
                "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, repeat(s, 60) FROM r WHERE n < 5) SELECT max(length(s)) AS m FROM r",
                "WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s || s FROM r WHERE n < 16) SELECT max(length(s)) AS m FROM r",
                "WITH RECURSIVE r(n, l) AS (SELECT 1, [1] UNION ALL SELECT n + 1, list_concat(l, l) FROM r WHERE n < 24) SELECT max(len(l)) AS m FROM r",
                nestedDoubling("SELECT [1] AS x", 20).replace("x || x", "list_concat(x, x)").replace("length(x)", "len(x)"));
    }

    /** {@code levels} CTEs, each doubling the text (or list) {@code x} of the one before. */
    public static String nestedDoubling(String base, int levels) {
        StringBuilder sql = new StringBuilder("WITH a0 AS (").append(base).append(')');
        for (int i = 1; i <= levels; i++) {
            sql.append(", a").append(i).append(" AS (SELECT x || x AS x FROM a").append(i - 1).append(')');
        }
        return sql.append(" SELECT length(x) AS n FROM a").append(levels).toString();
    }

    /**
     * Legal queries whose work or result grows with rows the guard cannot bound before they run: a
     * trillion-row scan, a cross join, a string aggregate over a hundred million rows, a sort and a
     * DISTINCT far beyond the memory limit. The time, memory and spill-folder limits must stop each.
     */
    public static List<String> runaways() {
        return List.of(
                "SELECT count(*) AS n FROM range(1000000000000) t(i)",
                "SELECT count(*) AS n FROM range(1000000) a(i), range(1000000) b(j) WHERE (i * 7 + j) % 1000003 = 17",
                "SELECT length(string_agg(CAST(i AS VARCHAR), ',')) AS n FROM range(300000000) t(i)",
                "SELECT max(length(s)) AS n FROM (SELECT string_agg(name, ',') AS s FROM users, range(50000000) t(i))",
                "SELECT max(r) AS n FROM (SELECT row_number() OVER (ORDER BY hash(i)) AS r FROM range(300000000) t(i))",
                "SELECT count(DISTINCT CAST(i AS VARCHAR) || 'x') AS n FROM range(300000000) t(i)",
                "SELECT list(i) AS l FROM range(300000000) t(i)",
                "SELECT histogram(i % 100000000) AS h FROM range(300000000) t(i)",
                // unnest x join multiplies rows, not a value: DuckDB checks for interruption between them
                "SELECT count(*) AS n FROM (SELECT list(i) AS l FROM range(100000) t(i)) t, unnest(t.l) a(x), unnest(t.l) b(y)",
                "SELECT max(y) AS n FROM (SELECT list(i) AS l FROM range(100000) t(i)) t, LATERAL (SELECT unnest(t.l) AS y FROM unnest(t.l)) u",
                "SELECT len(l2) AS n FROM (SELECT (SELECT list(a.x) FROM unnest(t.l) a(x), unnest(t.l) b(y)) AS l2 "
                        + "FROM (SELECT list(i) AS l FROM range(20000) t(i)) t)");
    }
}
