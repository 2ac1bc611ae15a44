package dev.sqlguard.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * A benchmark-style corpus in the manner of the public text-to-SQL benchmarks (BIRD, Spider): eleven
 * small databases of realistic shape, held as tables with a prefix each, and gold-style questions
 * over them, run raw and guarded by each engine's test ({@link HonestCorpus#compare}). The schemas
 * have keyword-named columns ({@code year}, {@code time}, {@code position}, {@code cross},
 * {@code format}, {@code uuid}, {@code date}, {@code type}, {@code status}, {@code order}), names with
 * spaces and capitals, dates stored as text, nullable foreign keys and a wide table; the questions use
 * CTEs, window functions, set operations, CASE, casts in both styles, date arithmetic, LIMIT/OFFSET,
 * correlated subqueries and aggregates with HAVING. Where the dialects differ (the cast types, the
 * interval literal, OFFSET's place, {@code ::}), each engine has its own minimal variant
 * ({@link Dialect}). The data are generated from a fixed seed, so every engine holds the same rows.
 */
public final class BenchmarkCorpus {
    /** What differs between the engines in this corpus. */
    public enum Dialect {
        POSTGRESQL, TRINO, MYSQL, DUCKDB;

        /** A name as written in the corpus ({@code "..."} quoted) in this engine's quoting. */
        String quote(String sql) {
            return this == MYSQL ? sql.replace('"', '`') : sql;
        }

        String castInt(String e) {
            return this == MYSQL ? "CAST(" + e + " AS signed)" : "CAST(" + e + " AS integer)";
        }

        String castText(String e) {
            return this == MYSQL ? "CAST(" + e + " AS char)" : "CAST(" + e + " AS varchar)";
        }

        String plusDays(String e, int days) {
            return switch (this) {
                case POSTGRESQL, DUCKDB -> e + " + INTERVAL '" + days + " days'";
                case TRINO -> e + " + INTERVAL '" + days + "' DAY";
                case MYSQL -> e + " + INTERVAL " + days + " DAY";
            };
        }

        String limitOffset(int limit, int offset) {
            return this == TRINO ? " OFFSET " + offset + " LIMIT " + limit : " LIMIT " + limit + " OFFSET " + offset;
        }

        /** Whether {@code x::type} is this engine's cast. */
        boolean colonCast() {
            return this == POSTGRESQL || this == DUCKDB;
        }
    }

    /** A column: its name as declared, its SQL type, and how its values are made. */
    record Column(String name, String type, Function<Random, Object> value) {
        String written() {
            return name.matches("[a-z_][a-z0-9_]*") && !QUOTED_ALWAYS.contains(name) ? name : "\"" + name + "\"";
        }
    }

    /** A table of the corpus with its generated rows. */
    public record Table(String name, List<Column> columns, List<List<Object>> rows) {
        /** The column names as declared. */
        public List<String> columnNames() {
            return columns.stream().map(Column::name).toList();
        }
    }

    /** Names every engine reserves, so every query quotes them. */
    private static final java.util.Set<String> QUOTED_ALWAYS = java.util.Set.of("order", "cross");

    /**
     * One question pattern's subject: a fact table with a unique key, a category, a measure, a date,
     * a date stored as text and a nullable foreign key to a dimension table with a label.
     */
    private record Subject(String t, String k, String c, String n, String d, String td, String f, String dt, String dk, String dl,
                           int low, int high) {
    }

    private BenchmarkCorpus() {
    }

    // ------------------------------------------------------------------ data

    private static final String[] FIRST = {"Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea"};
    private static final String[] CITIES = {"Austin", "Boston", "Chicago", "Denver", "El Paso", "Fresno", "Gary"};

    private static Function<Random, Object> ints(int from, int to) {
        return r -> from + r.nextInt(to - from + 1);
    }

    private static Function<Random, Object> nullableInts(int from, int to) {
        return r -> r.nextInt(6) == 0 ? null : from + r.nextInt(to - from + 1);
    }

    private static Function<Random, Object> money(int max) {
        return r -> new java.math.BigDecimal(r.nextInt(max * 100)).movePointLeft(2);
    }

    private static Function<Random, Object> pick(String... values) {
        return r -> values[r.nextInt(values.length)];
    }

    private static Function<Random, Object> dates() {
        return r -> java.time.LocalDate.of(2015, 1, 1).plusDays(r.nextInt(3000));
    }

    /** A date stored as text ({@code YYYY-MM-DD}), a BIRD habit. */
    private static Function<Random, Object> textDates() {
        return r -> java.time.LocalDate.of(1960, 1, 1).plusDays(r.nextInt(20000)).toString();
    }

    private static Function<Random, Object> names() {
        return r -> FIRST[r.nextInt(FIRST.length)] + " " + (char) ('A' + r.nextInt(26)) + ".";
    }

    private static Function<Random, Object> uuids() {
        return r -> new java.util.UUID(r.nextLong(), r.nextLong()).toString();
    }

    private static Column col(String name, String type, Function<Random, Object> value) {
        return new Column(name, type, value);
    }

    private static Table table(String name, int rows, long seed, Column... columns) {
        Random r = new Random(seed);
        List<List<Object>> data = new ArrayList<>();
        for (int i = 1; i <= rows; i++) {
            List<Object> row = new ArrayList<>();
            for (int c = 0; c < columns.length; c++) {
                row.add(c == 0 ? (Object) i : columns[c].value().apply(r));
            }
            data.add(row);
        }
        return new Table(name, List.of(columns), data);
    }

    /** The eleven databases' tables, in creation order. */
    public static List<Table> tables() {
        List<Table> t = new ArrayList<>();
        t.add(table("f1_drivers", 30, 1, col("driverid", "integer", null), col("First Name", "varchar(20)", pick(FIRST)),
                col("surname", "varchar(20)", names()), col("nationality", "varchar(20)", pick("British", "German", "Dutch", "Finnish", "Spanish")),
                col("dob", "varchar(10)", textDates()), col("number", "integer", nullableInts(1, 99))));
        t.add(table("f1_races", 40, 2, col("raceid", "integer", null), col("year", "integer", ints(2009, 2023)),
                col("round", "integer", ints(1, 22)), col("name", "varchar(30)", pick("Monaco GP", "Italian GP", "British GP", "Bahrain GP")),
                col("date", "date", dates()), col("time", "varchar(8)", pick("13:00:00", "14:00:00", "15:10:00"))));
        t.add(table("f1_results", 200, 3, col("resultid", "integer", null), col("raceid", "integer", ints(1, 40)),
                col("driverid", "integer", nullableInts(1, 30)), col("position", "integer", nullableInts(1, 20)),
                col("points", "decimal(6,2)", money(26)), col("laps", "integer", ints(0, 78)),
                col("status", "varchar(12)", pick("Finished", "Accident", "Engine", "+1 Lap")), col("fastest", "date", dates())));
        t.add(table("sc_schools", 40, 4, col("cds", "integer", null), col("School Name", "varchar(30)", names()),
                col("county", "varchar(20)", pick("Alameda", "Fresno", "Kern", "Marin", "Yolo")),
                col("type", "varchar(12)", pick("Charter", "Public", "Magnet")), col("opened", "varchar(10)", textDates()),
                col("enrollment", "integer", ints(80, 3000))));
        t.add(table("sc_scores", 160, 5, col("score_id", "integer", null), col("cds", "integer", nullableInts(1, 40)),
                col("year", "integer", ints(2016, 2022)), col("AvgMath", "integer", ints(300, 700)),
                col("avg_read", "integer", ints(300, 700)), col("takers", "integer", nullableInts(0, 400)), col("tested", "date", dates())));
        t.add(table("rt_customers", 50, 6, col("customer_id", "integer", null), col("name", "varchar(20)", names()),
                col("segment", "varchar(12)", pick("Consumer", "Corporate", "Home")), col("city", "varchar(20)", pick(CITIES)),
                col("Joined", "varchar(10)", textDates())));
        t.add(table("rt_orders", 220, 7, col("order_id", "integer", null), col("customer_id", "integer", nullableInts(1, 50)),
                col("order", "integer", ints(1000, 9999)), col("date", "date", dates()),
                col("status", "varchar(10)", pick("shipped", "returned", "pending", "lost")), col("total", "decimal(10,2)", money(900)),
                col("shipped_on", "varchar(10)", textDates())));
        t.add(table("mv_genres", 8, 8, col("genre_id", "integer", null), col("label", "varchar(12)",
                pick("Drama", "Comedy", "Horror", "Action", "Sci-Fi", "Animation"))));
        t.add(table("mv_movies", 120, 9, col("movie_id", "integer", null), col("title", "varchar(30)", names()),
                col("year", "integer", ints(1970, 2023)), col("genre_id", "integer", nullableInts(1, 8)),
                col("format", "varchar(8)", pick("35mm", "digital", "IMAX")), col("rating", "decimal(3,1)", r -> new java.math.BigDecimal(r.nextInt(100)).movePointLeft(1)),
                col("released", "date", dates()), col("premiere", "varchar(10)", textDates())));
        t.add(table("hr_departments", 10, 10, col("dept_id", "integer", null), col("Dept Name", "varchar(20)",
                pick("Sales", "Research", "Legal", "Support", "Finance")), col("location", "varchar(20)", pick(CITIES))));
        t.add(table("hr_employees", 150, 11, col("emp_id", "integer", null), col("Full Name", "varchar(24)", names()),
                col("dept_id", "integer", nullableInts(1, 10)), col("position", "varchar(12)", pick("Engineer", "Manager", "Analyst", "Clerk")),
                col("salary", "decimal(10,2)", money(12000)), col("hire_date", "date", dates()), col("birth", "varchar(10)", textDates())));
        t.add(table("sp_teams", 16, 12, col("team_id", "integer", null), col("Team Name", "varchar(20)", names()),
                col("city", "varchar(20)", pick(CITIES))));
        t.add(table("sp_matches", 180, 13, col("match_id", "integer", null), col("home_id", "integer", nullableInts(1, 16)),
                col("season", "integer", ints(2018, 2023)), col("cross", "integer", ints(0, 40)),
                col("home_goals", "integer", ints(0, 6)), col("kickoff", "date", dates()), col("date", "varchar(10)", textDates()),
                col("stage", "varchar(10)", pick("group", "quarter", "semi", "final"))));
        t.add(table("lb_members", 30, 14, col("member_id", "integer", null), col("name", "varchar(20)", names())));
        t.add(table("lb_books", 140, 15, col("book_id", "integer", null), col("uuid", "varchar(36)", uuids()),
                col("title", "varchar(30)", names()), col("member_id", "integer", nullableInts(1, 30)), col("year", "integer", ints(1900, 2023)),
                col("type", "varchar(10)", pick("novel", "poetry", "essay", "manual")), col("pages", "integer", ints(40, 900)),
                col("catalogued", "date", dates()), col("loaned", "varchar(10)", textDates())));
        t.add(table("fl_airports", 12, 16, col("airport_id", "integer", null), col("code", "varchar(3)", pick("AUS", "BOS", "ORD", "DEN", "SFO")),
                col("city", "varchar(20)", pick(CITIES))));
        t.add(table("fl_flights", 240, 17, col("flight_id", "integer", null), col("origin_id", "integer", nullableInts(1, 12)),
                col("carrier", "varchar(4)", pick("AA", "DL", "UA", "WN")), col("dep_delay", "integer", nullableInts(-10, 180)),
                col("distance", "integer", ints(150, 2800)), col("date", "date", dates()), col("sched", "varchar(10)", textDates())));
        t.add(table("cl_patients", 60, 18, col("patient_id", "integer", null), col("sex", "varchar(1)", pick("F", "M")),
                col("birth", "varchar(10)", textDates()), col("First Visit", "date", dates())));
        t.add(table("cl_labs", 260, 19, col("lab_id", "integer", null), col("patient_id", "integer", nullableInts(1, 60)),
                col("test", "varchar(8)", pick("GLU", "HGB", "WBC", "ALT")), col("value", "decimal(8,2)", money(400)),
                col("date", "date", dates()), col("reported", "varchar(10)", textDates())));
        Column[] wide = new Column[44];
        wide[0] = col("row_id", "integer", null);
        wide[1] = col("region", "varchar(10)", pick("north", "south", "east", "west"));
        wide[2] = col("year", "integer", ints(2015, 2023));
        wide[3] = col("observed", "date", dates());
        for (int i = 4; i < wide.length; i++) {
            wide[i] = col(String.format(Locale.ROOT, "m%02d", i - 3), "integer", nullableInts(0, 1000));
        }
        t.add(table("wd_metrics", 90, 20, wide));
        t.add(table("ev_users", 25, 21, col("user_id", "integer", null), col("country", "varchar(12)", pick("DE", "FR", "US", "JP"))));
        t.add(table("ev_events", 300, 22, col("event_id", "integer", null), col("uuid", "varchar(36)", uuids()),
                col("user_id", "integer", nullableInts(1, 25)), col("type", "varchar(10)", pick("click", "view", "purchase", "signup")),
                col("amount", "decimal(8,2)", money(300)), col("occurred", "date", dates()), col("day", "varchar(10)", textDates())));
        return t;
    }

    /** CREATE TABLE and INSERT statements for {@code dialect}, in order. */
    public static List<String> ddl(Dialect dialect) {
        List<String> out = new ArrayList<>();
        for (Table t : tables()) {
            List<String> cols = new ArrayList<>();
            for (Column c : t.columns()) {
                cols.add(dialect.quote("\"" + c.name() + "\"") + " " + c.type());
            }
            out.add("CREATE TABLE " + t.name() + " (" + String.join(", ", cols) + ")");
            List<String> rows = new ArrayList<>();
            for (List<Object> row : t.rows()) {
                rows.add("(" + String.join(", ", row.stream().map(BenchmarkCorpus::literal).toList()) + ")");
            }
            out.add("INSERT INTO " + t.name() + " VALUES " + String.join(", ", rows));
        }
        return out;
    }

    private static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof java.time.LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (v instanceof String s) {
            return "'" + s.replace("'", "''") + "'";
        }
        return v.toString();
    }

    /** Each table's columns as declared, for an allowlist ({@code fold} applied to each name, for engines that fold). */
    public static Map<String, List<String>> allowlist(Function<String, String> fold) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Table t : tables()) {
            out.put(t.name(), t.columnNames().stream().map(fold).toList());
        }
        return out;
    }

    // ------------------------------------------------------------------ questions

    private static List<Subject> subjects() {
        return List.of(
                new Subject("f1_results", "resultid", "status", "points", "fastest", null, "driverid", "f1_drivers", "driverid", "surname", 5, 20),
                new Subject("f1_races", "raceid", "name", "round", "date", null, null, null, null, null, 5, 15),
                new Subject("sc_scores", "score_id", "year", "\"AvgMath\"", "tested", null, "cds", "sc_schools", "cds", "\"School Name\"", 450, 600),
                new Subject("rt_orders", "order_id", "status", "total", "date", "shipped_on", "customer_id", "rt_customers", "customer_id", "name", 200, 700),
                new Subject("mv_movies", "movie_id", "format", "rating", "released", "premiere", "genre_id", "mv_genres", "genre_id", "label", 3, 7),
                new Subject("hr_employees", "emp_id", "position", "salary", "hire_date", "birth", "dept_id", "hr_departments", "dept_id", "\"Dept Name\"", 3000, 9000),
                new Subject("sp_matches", "match_id", "stage", "\"cross\"", "kickoff", "date", "home_id", "sp_teams", "team_id", "\"Team Name\"", 10, 30),
                new Subject("lb_books", "book_id", "type", "pages", "catalogued", "loaned", "member_id", "lb_members", "member_id", "name", 200, 600),
                new Subject("fl_flights", "flight_id", "carrier", "distance", "date", "sched", "origin_id", "fl_airports", "airport_id", "code", 800, 2000),
                new Subject("cl_labs", "lab_id", "test", "value", "date", "reported", "patient_id", "cl_patients", "patient_id", "sex", 100, 300),
                new Subject("ev_events", "event_id", "type", "amount", "occurred", "day", "user_id", "ev_users", "user_id", "country", 50, 200),
                new Subject("wd_metrics", "row_id", "region", "m07", "observed", null, null, null, null, null, 300, 700));
    }

    /** The corpus in {@code dialect}: every question of every subject, and the questions written for one database. */
    public static List<String> queries(Dialect dialect) {
        List<String> q = new ArrayList<>();
        for (Subject s : subjects()) {
            for (String sql : questions(s, dialect)) {
                q.add(dialect.quote(sql));
            }
        }
        for (String sql : particular(dialect)) {
            q.add(dialect.quote(sql));
        }
        return q;
    }

    private static List<String> questions(Subject s, Dialect x) {
        String t = s.t();
        String k = s.k();
        String c = s.c();
        String n = s.n();
        String d = s.d();
        List<String> q = new ArrayList<>();
        q.add("SELECT " + c + ", count(*) AS cnt FROM " + t + " GROUP BY " + c + " ORDER BY " + c);
        q.add("SELECT " + c + ", sum(" + n + ") AS total, avg(" + n + ") AS mean, min(" + n + ") AS lo, max(" + n + ") AS hi FROM " + t
                + " GROUP BY " + c + " ORDER BY 1");
        q.add("SELECT " + c + ", count(*) AS cnt FROM " + t + " GROUP BY " + c + " HAVING count(*) > 2 ORDER BY cnt DESC, " + c);
        q.add("SELECT " + k + ", " + n + " FROM " + t + " WHERE " + n + " > (SELECT avg(" + n + ") FROM " + t + ") ORDER BY " + k);
        q.add("SELECT " + k + ", " + n + ", rank() OVER (PARTITION BY " + c + " ORDER BY " + n + " DESC, " + k + ") AS rnk FROM " + t
                + " ORDER BY " + k);
        q.add("SELECT " + k + ", sum(" + n + ") OVER (ORDER BY " + k + " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM "
                + t + " ORDER BY " + k);
        q.add("WITH per AS (SELECT " + c + " AS grp, count(*) AS cnt FROM " + t + " GROUP BY " + c + ") SELECT grp, cnt FROM per"
                + " WHERE cnt >= 1 ORDER BY cnt DESC, grp");
        q.add("SELECT " + k + ", CASE WHEN " + n + " > " + s.high() + " THEN 'high' WHEN " + n + " > " + s.low()
                + " THEN 'mid' ELSE 'low' END AS band FROM " + t + " ORDER BY " + k);
        q.add("SELECT CASE WHEN " + n + " > " + s.high() + " THEN 'high' ELSE 'other' END AS band, count(*) AS cnt FROM " + t
                + " GROUP BY CASE WHEN " + n + " > " + s.high() + " THEN 'high' ELSE 'other' END ORDER BY 1");
        q.add("SELECT " + k + ", " + x.castInt(n) + " AS whole FROM " + t + " WHERE " + k + " <= 20 ORDER BY " + k);
        q.add("SELECT " + k + ", " + n + " FROM " + t + " ORDER BY " + n + " DESC, " + k + x.limitOffset(5, 3));
        q.add("SELECT " + k + " FROM " + t + " ORDER BY " + k + " LIMIT 7");
        q.add("SELECT EXTRACT(YEAR FROM " + d + ") AS yr, count(*) AS cnt FROM " + t + " GROUP BY EXTRACT(YEAR FROM " + d + ") ORDER BY 1");
        q.add("SELECT EXTRACT(MONTH FROM " + d + ") AS mon, sum(" + n + ") AS total FROM " + t + " WHERE " + d
                + " >= DATE '2018-01-01' GROUP BY EXTRACT(MONTH FROM " + d + ") ORDER BY 1");
        q.add("SELECT " + k + ", " + x.plusDays(d, 30) + " AS due FROM " + t + " WHERE " + k + " <= 15 ORDER BY " + k);
        q.add("SELECT count(*) AS cnt FROM " + t + " WHERE " + d + " BETWEEN DATE '2016-01-01' AND DATE '2019-12-31'");
        q.add("SELECT min(" + d + ") AS first_day, max(" + d + ") AS last_day FROM " + t);
        q.add("SELECT " + k + ", " + n + " FROM " + t + " o WHERE " + n + " >= (SELECT avg(i." + n + ") FROM " + t + " i WHERE i." + c
                + " = o." + c + ") ORDER BY " + k);
        q.add("SELECT " + c + " FROM " + t + " WHERE " + n + " > " + s.high() + " UNION SELECT " + c + " FROM " + t + " WHERE " + n
                + " < " + s.low() + " ORDER BY 1");
        q.add("SELECT " + c + " FROM " + t + " WHERE " + n + " > " + s.low() + " INTERSECT SELECT " + c + " FROM " + t + " WHERE " + n
                + " < " + s.high() + " ORDER BY 1");
        q.add("SELECT " + c + " FROM " + t + " EXCEPT SELECT " + c + " FROM " + t + " WHERE " + n + " > " + s.high() + " ORDER BY 1");
        q.add("SELECT " + k + " FROM " + t + " WHERE " + n + " > " + s.high() + " UNION ALL SELECT " + k + " FROM " + t + " WHERE " + n
                + " < " + s.low() + " ORDER BY 1");
        q.add("SELECT DISTINCT " + c + " FROM " + t + " ORDER BY 1");
        q.add("SELECT count(DISTINCT " + c + ") AS kinds FROM " + t);
        q.add("SELECT " + k + ", " + n + " - lag(" + n + ") OVER (ORDER BY " + k + ") AS delta FROM " + t + " ORDER BY " + k);
        q.add("WITH ranked AS (SELECT " + k + " AS id, " + c + " AS grp, " + n + " AS val, row_number() OVER (PARTITION BY " + c
                + " ORDER BY " + n + " DESC, " + k + ") AS rn FROM " + t + ") SELECT grp, id, val FROM ranked WHERE rn = 1 ORDER BY grp");
        q.add("SELECT " + c + ", round(avg(" + n + "), 2) AS mean FROM " + t + " GROUP BY " + c + " ORDER BY 2 DESC, 1");
        q.add("SELECT sum(CASE WHEN " + n + " > " + s.high() + " THEN 1 ELSE 0 END) AS hi, count(*) AS cnt FROM " + t);
        q.add("SELECT count(*) AS cnt FROM " + t + " WHERE " + n + " BETWEEN " + s.low() + " AND " + s.high());
        q.add("SELECT " + c + " AS grp, count(*) AS cnt FROM " + t + " GROUP BY " + c + " ORDER BY cnt DESC, grp");
        q.add("SELECT " + k + ", avg(" + n + ") OVER (PARTITION BY " + c + ") AS grp_mean FROM " + t + " ORDER BY " + k);
        q.add("SELECT " + c + ", 100.0 * count(*) / (SELECT count(*) FROM " + t + ") AS pct FROM " + t + " GROUP BY " + c + " ORDER BY 1");
        q.add("SELECT a." + k + " AS a_id, b." + k + " AS b_id FROM " + t + " a JOIN " + t + " b ON a." + c + " = b." + c + " AND a." + k
                + " < b." + k + " WHERE a." + k + " <= 6 AND b." + k + " <= 12 ORDER BY 1, 2");
        q.add("WITH lo AS (SELECT " + k + " AS id FROM " + t + " WHERE " + n + " < " + s.low() + "), hi AS (SELECT " + k + " AS id FROM "
                + t + " WHERE " + n + " > " + s.high() + ") SELECT (SELECT count(*) FROM lo) AS lows, (SELECT count(*) FROM hi) AS highs");
        q.add("SELECT " + c + ", min(" + d + ") AS first_day, max(" + d + ") AS last_day FROM " + t + " GROUP BY " + c + " ORDER BY 1");
        q.add("SELECT count(*) AS cnt FROM " + t + " WHERE " + c + " IS NOT NULL AND " + n + " IS NOT NULL");
        if (x.colonCast()) {
            q.add("SELECT " + k + ", " + n + "::integer AS whole, " + k + "::varchar AS label FROM " + t + " WHERE " + k + " <= 10 ORDER BY " + k);
        } else {
            q.add("SELECT " + k + ", " + x.castText(k) + " AS label FROM " + t + " WHERE " + k + " <= 10 ORDER BY " + k);
        }
        if (s.td() != null) {
            String td = s.td();
            q.add("SELECT " + k + " FROM " + t + " WHERE CAST(" + td + " AS date) >= DATE '2010-01-01' ORDER BY " + k);
            q.add("SELECT substr(" + td + ", 1, 4) AS yr, count(*) AS cnt FROM " + t + " GROUP BY substr(" + td + ", 1, 4) ORDER BY 1");
            q.add("SELECT " + k + ", " + td + " FROM " + t + " WHERE " + td + " LIKE '19%' ORDER BY " + td + ", " + k);
            q.add("SELECT max(CAST(" + td + " AS date)) AS latest FROM " + t);
        }
        if (s.f() != null) {
            String f = s.f();
            String dt = s.dt();
            String dk = s.dk();
            String dl = s.dl();
            q.add("SELECT " + dk + ", " + dl + " FROM " + dt + " WHERE EXISTS (SELECT 1 FROM " + t + " WHERE " + t + "." + f + " = " + dt + "."
                    + dk + ") ORDER BY " + dk);
            q.add("SELECT " + dt + "." + dl + " AS lbl, count(" + t + "." + k + ") AS cnt FROM " + dt + " LEFT JOIN " + t + " ON " + t + "."
                    + f + " = " + dt + "." + dk + " GROUP BY " + dt + "." + dk + ", " + dt + "." + dl + " ORDER BY " + dt + "." + dk);
            q.add("SELECT count(*) AS cnt FROM " + t + " WHERE " + f + " IS NULL");
            q.add("SELECT " + k + ", coalesce(" + x.castText(f) + ", 'none') AS ref FROM " + t + " WHERE " + k + " <= 25 ORDER BY " + k);
            q.add("SELECT " + k + " FROM " + t + " WHERE " + f + " IN (SELECT " + dk + " FROM " + dt + " WHERE " + dk + " <= 3) ORDER BY " + k);
            q.add("SELECT " + dk + " FROM " + dt + " WHERE " + dk + " NOT IN (SELECT " + f + " FROM " + t + " WHERE " + f
                    + " IS NOT NULL) ORDER BY 1");
            q.add("SELECT " + f + ", sum(" + n + ") AS total FROM " + t + " WHERE " + f + " IS NOT NULL GROUP BY " + f + " HAVING sum(" + n
                    + ") > " + s.high() + " ORDER BY 1");
            q.add("SELECT " + dl + ", (SELECT count(*) FROM " + t + " WHERE " + t + "." + f + " = " + dt + "." + dk + ") AS cnt FROM " + dt
                    + " ORDER BY " + dk);
            q.add("SELECT m." + dl + " AS lbl, x." + c + ", x." + n + " FROM " + t + " x JOIN " + dt + " m ON m." + dk + " = x." + f
                    + " WHERE x." + k + " <= 30 ORDER BY x." + k);
            q.add("WITH totals AS (SELECT " + f + " AS ref, sum(" + n + ") AS total FROM " + t + " GROUP BY " + f + ") SELECT d." + dl
                    + " AS lbl, t.total FROM " + dt + " d JOIN totals t ON t.ref = d." + dk + " ORDER BY t.total DESC, d." + dk + " LIMIT 5");
            q.add("SELECT lower(" + dl + ") AS low, upper(" + dl + ") AS up, length(" + dl + ") AS len FROM " + dt + " ORDER BY " + dk);
        }
        return q;
    }

    /** Questions written for one database each (the keyword-named columns as BIRD and Spider gold queries write them). */
    private static List<String> particular(Dialect x) {
        List<String> q = new ArrayList<>(List.of(
                "SELECT year, count(*) AS races FROM f1_races GROUP BY year ORDER BY year",
                "SELECT r.year, r.name, r.date, r.time FROM f1_races r WHERE r.year >= 2020 ORDER BY r.raceid",
                "SELECT d.surname, sum(res.points) AS pts FROM f1_results res JOIN f1_drivers d ON d.driverid = res.driverid"
                        + " GROUP BY d.driverid, d.surname HAVING sum(res.points) > 40 ORDER BY pts DESC, d.surname",
                "SELECT position, count(*) AS n FROM f1_results WHERE position IS NOT NULL GROUP BY position ORDER BY position",
                "SELECT \"First Name\", number FROM f1_drivers WHERE number IS NOT NULL ORDER BY number, driverid",
                "SELECT year, time, date FROM f1_races WHERE time = '14:00:00' ORDER BY raceid",
                "SELECT s.\"School Name\", s.county, s.type FROM sc_schools s WHERE s.type = 'Charter' ORDER BY s.cds",
                "SELECT year, avg(\"AvgMath\") AS math FROM sc_scores GROUP BY year ORDER BY year",
                "SELECT type, sum(enrollment) AS pupils FROM sc_schools GROUP BY type ORDER BY type",
                "SELECT \"order\", status, total FROM rt_orders WHERE status = 'returned' ORDER BY \"order\", order_id",
                "SELECT c.segment, count(o.order_id) AS orders FROM rt_customers c LEFT JOIN rt_orders o ON o.customer_id = c.customer_id"
                        + " GROUP BY c.segment ORDER BY c.segment",
                "SELECT date, count(*) AS n FROM rt_orders GROUP BY date HAVING count(*) > 1 ORDER BY date",
                "SELECT \"Joined\", name FROM rt_customers WHERE \"Joined\" > '2000-01-01' ORDER BY customer_id",
                "SELECT format, count(*) AS n, max(rating) AS best FROM mv_movies GROUP BY format ORDER BY format",
                "SELECT year, title FROM mv_movies WHERE year BETWEEN 1990 AND 1999 ORDER BY year, movie_id",
                "SELECT g.label, avg(m.rating) AS r FROM mv_movies m JOIN mv_genres g ON g.genre_id = m.genre_id GROUP BY g.label ORDER BY 1",
                "SELECT position, round(avg(salary), 2) AS pay FROM hr_employees GROUP BY position ORDER BY position",
                "SELECT d.\"Dept Name\", d.location, count(e.emp_id) AS staff FROM hr_departments d LEFT JOIN hr_employees e"
                        + " ON e.dept_id = d.dept_id GROUP BY d.dept_id, d.\"Dept Name\", d.location ORDER BY d.dept_id",
                "SELECT \"Full Name\", position FROM hr_employees WHERE dept_id IS NULL ORDER BY emp_id",
                "SELECT season, sum(\"cross\") AS crosses, avg(home_goals) AS goals FROM sp_matches GROUP BY season ORDER BY season",
                "SELECT t.\"Team Name\", count(*) AS games FROM sp_matches m JOIN sp_teams t ON t.team_id = m.home_id"
                        + " GROUP BY t.team_id, t.\"Team Name\" ORDER BY games DESC, t.team_id",
                "SELECT date, stage FROM sp_matches WHERE date LIKE '200%' ORDER BY date, match_id",
                "SELECT uuid, title FROM lb_books WHERE book_id <= 5 ORDER BY book_id",
                "SELECT type, year, count(*) AS n FROM lb_books WHERE year >= 2000 GROUP BY type, year ORDER BY type, year",
                "SELECT m.name, count(b.book_id) AS books FROM lb_members m LEFT JOIN lb_books b ON b.member_id = m.member_id"
                        + " GROUP BY m.member_id, m.name ORDER BY books DESC, m.member_id",
                "SELECT carrier, count(*) AS flights, avg(dep_delay) AS delay FROM fl_flights GROUP BY carrier ORDER BY carrier",
                "SELECT a.code, count(f.flight_id) AS departures FROM fl_airports a LEFT JOIN fl_flights f ON f.origin_id = a.airport_id"
                        + " GROUP BY a.code ORDER BY a.code",
                "SELECT date, dep_delay FROM fl_flights WHERE dep_delay > 150 ORDER BY date, flight_id",
                "SELECT p.sex, l.test, round(avg(l.value), 2) AS mean FROM cl_labs l JOIN cl_patients p ON p.patient_id = l.patient_id"
                        + " GROUP BY p.sex, l.test ORDER BY 1, 2",
                "SELECT \"First Visit\", birth FROM cl_patients WHERE \"First Visit\" >= DATE '2020-01-01' ORDER BY patient_id",
                "SELECT test, value, date FROM cl_labs WHERE value > 390 ORDER BY date, lab_id",
                "SELECT region, year, sum(m01) AS a, avg(m02) AS b, max(m40) AS c, count(m20) AS d FROM wd_metrics GROUP BY region, year"
                        + " ORDER BY region, year",
                "SELECT row_id, m01 + m02 + m03 AS s, coalesce(m04, 0) AS m4 FROM wd_metrics WHERE year = 2020 ORDER BY row_id",
                "SELECT * FROM wd_metrics WHERE row_id <= 3 ORDER BY row_id",
                "SELECT type, count(*) AS n, sum(amount) AS revenue FROM ev_events GROUP BY type ORDER BY type",
                "SELECT u.country, count(DISTINCT e.type) AS kinds FROM ev_users u JOIN ev_events e ON e.user_id = u.user_id"
                        + " GROUP BY u.country ORDER BY u.country",
                "SELECT uuid, day, occurred FROM ev_events WHERE type = 'signup' AND event_id <= 60 ORDER BY event_id",
                "WITH firsts AS (SELECT user_id, min(occurred) AS first_at FROM ev_events WHERE user_id IS NOT NULL GROUP BY user_id)"
                        + " SELECT EXTRACT(YEAR FROM first_at) AS yr, count(*) AS users FROM firsts GROUP BY EXTRACT(YEAR FROM first_at) ORDER BY 1",
                "SELECT e.type, e.amount, sum(e.amount) OVER (PARTITION BY e.type ORDER BY e.event_id) AS running FROM ev_events e"
                        + " WHERE e.event_id <= 40 ORDER BY e.event_id"));
        if (x.colonCast()) {
            q.add("SELECT year::varchar AS y, count(*) AS n FROM mv_movies GROUP BY year ORDER BY 1");
            q.add("SELECT premiere::date AS p FROM mv_movies WHERE movie_id <= 5 ORDER BY movie_id");
        } else {
            q.add("SELECT " + x.castText("year") + " AS y, count(*) AS n FROM mv_movies GROUP BY year ORDER BY 1");
            q.add("SELECT CAST(premiere AS date) AS p FROM mv_movies WHERE movie_id <= 5 ORDER BY movie_id");
        }
        return q;
    }
}
