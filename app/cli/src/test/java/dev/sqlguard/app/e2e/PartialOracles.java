package dev.sqlguard.app.e2e;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.domain.ErrorCode;

/**
 * Issue 24's error oracles through partial arguments (cause 2), for the end-to-end tests of the CLI batch
 * and the MCP server: a {@code users} table on every engine this machine runs (a DuckDB file always, a
 * PostgreSQL schema and a MariaDB/MySQL database when {@code SQLGUARD_PG_*} / {@code SQLGUARD_MYSQL_*} name
 * their servers; {@link #trino} puts one in a memory schema of a Trino cluster), and per engine one query for
 * each partial-argument class its engine test covers ({@code DuckDbPartialArgumentTest},
 * {@code PostgresPartialArgumentTest}, {@code MySqlPartialArgumentTest}, Trino's {@code TrinoPartialArgumentTest}
 * and {@code TrinoValidatorTest.aSensitiveValueNeverReachesAParameterArgument}).
 *
 * <p>The table: {@code (id, note, password, created, score, ssn)}, and on PostgreSQL {@code (born, since)}
 * dates. {@code password} and {@code ssn} are sensitive by their built-in names, {@code born} by the policy's
 * {@code redact}; {@code note}, {@code score} and {@code since} hold the same values and are not, so the
 * same query over them (the control) shows that the shape really is an oracle on that engine, through the
 * product: its outcome differs from one row to another. Rows {@link #IDS}: {@code 'pabc'} and the smallest
 * BIGINT (and the date 294277-01-01), {@code 'Qab!'} and 5 (2020-01-01), NULL and NULL (NULL). Each query has
 * one parameter, the row's id. Closing drops what was created (the DuckDB file lives in the caller's folder).
 */
final class PartialOracles implements AutoCloseable {
    /** The rows' ids: three different secrets. */
    static final List<Long> IDS = List.of(1L, 2L, 3L);

    /**
     * One oracle. {@code template} reads {@code {text}}, {@code {number}} and {@code {date}}: the sensitive
     * {@code password}, {@code ssn} and {@code born} in the attack, {@code note}, {@code score} and {@code since}
     * in the control. The attack must be refused with {@code COLUMN_NOT_ALLOWED} whatever the secret, at the
     * step {@code refusedAt} (the partial function or cast the secret reaches, or {@code filter} / {@code order}
     * where the secret's position is refused first); the control either answers differently for different
     * rows ({@code controlRefusal} null) or is refused with {@code controlRefusal} (a size argument that is not
     * a small literal is refused whatever its lineage).
     */
    record Oracle(String name, String template, String refusedAt, ErrorCode controlRefusal) {
        String attack() {
            return template.replace("{text}", "u.password").replace("{number}", "u.ssn").replace("{date}", "u.born");
        }

        /** The refusal's message: the threat model's sentence for the sensitive column and the refused step. */
        String message() {
            String column = template.contains("{text}") ? "password" : template.contains("{number}") ? "ssn" : "born";
            String step = switch (refusedAt) {
                case FILTER -> "used to filter rows.";
                case ORDER -> "used to order rows.";
                default -> "computed on or compared, as '" + refusedAt + "' does.";
            };
            return "Column '" + column + "' is sensitive: its values may be selected (they come back redacted) but not " + step;
        }

        String control() {
            return template.replace("{text}", "u.note").replace("{number}", "u.score").replace("{date}", "u.since");
        }
    }

    /** {@link Oracle#refusedAt} of an attack refused because the secret filters rows. */
    private static final String FILTER = "filter";
    /** {@link Oracle#refusedAt} of an attack refused because the secret orders rows. */
    private static final String ORDER = "order";
    private static final String BY_ID = " FROM users u WHERE u.id = ?";

    /** DuckDB: the classes of {@code DuckDbPartialArgumentTest} and a narrowing cast. */
    static final List<Oracle> DUCKDB = List.of(
            new Oracle("top-n max count", "SELECT max(u.id, {number}) AS v" + BY_ID, "max", null),
            // the engine test's shape: total steps (ltrim, length) between the secret and the count; 0 for 'pabc'
            new Oracle("top-n max count through total steps",
                    "SELECT max(u.id, length(ltrim({text}, 'abcdefghijklmnopqrstuvwxyz'))) AS v" + BY_ID, "max", null),
            new Oracle("top-n min count", "SELECT min(u.id, {number}) AS v" + BY_ID, "min", null),
            new Oracle("arg_max count", "SELECT arg_max(u.id, u.id, {number}) AS v" + BY_ID, "arg_max", null),
            new Oracle("max_by count", "SELECT max_by(u.id, u.id, {number}) AS v" + BY_ID, "max_by", null),
            new Oracle("array_length dimension", "SELECT array_length([1, 2], length(rtrim({text}, 'abc'))) AS v" + BY_ID, "array_length", null),
            new Oracle("histogram bins", "SELECT histogram(u.id, list_value({number})) AS v" + BY_ID, "histogram", null),
            new Oracle("histogram bins through total steps", "SELECT histogram(u.id, list_value(length({text}))) AS v" + BY_ID,
                    "histogram", null),
            new Oracle("narrowing cast", "SELECT CAST({number} AS INTEGER) AS v" + BY_ID, "cast", null),
            // lineage through a renaming CTE and a derived table in a filter
            // computed but never output: no mask prunes it (with max's count marked total, ids 1 and 3 failed and 2 answered)
            new Oracle("top-n count in a materialized CTE whose value is not output",
                    "WITH s AS MATERIALIZED (SELECT max(u.id, {number}) AS m" + BY_ID + ") SELECT count(*) AS n FROM s", "max", null),
            new Oracle("top-n count from a renaming CTE",
                    "WITH s AS (SELECT u.id, {number} AS k FROM users u) SELECT max(s.id, s.k) AS v FROM s WHERE s.id = ?", "max", null),
            new Oracle("array_length dimension in a filter over a derived table",
                    "SELECT count(*) AS n FROM (SELECT u.id, length(rtrim({text}, 'abc')) AS k FROM users u) s"
                            + " WHERE s.id = ? AND array_length([1, 2], s.k) = 2", FILTER, null));

    /** PostgreSQL: the classes of {@code PostgresPartialArgumentTest}. */
    static final List<Oracle> POSTGRESQL = List.of(
            new Oracle("date_trunc unit", "SELECT date_trunc(concat('da', translate(left({text}, 1), 'p', 'y')), u.created) AS v" + BY_ID,
                    "date_trunc", null),
            new Oracle("date_trunc time zone",
                    "SELECT date_trunc('day', u.created, concat('UT', translate(left({text}, 1), 'p', 'C'))) AS v" + BY_ID, "date_trunc", null),
            new Oracle("date_part unit", "SELECT date_part(concat('da', translate(left({text}, 1), 'p', 'y')), u.created) AS v" + BY_ID,
                    "date_part", null),
            // a date past 294276 AD fails: date_part casts it to a timestamp
            new Oracle("date_part date", "SELECT date_part('year', {date}) AS v" + BY_ID, "date_part", null),
            new Oracle("to_char format", "SELECT to_char(u.id, concat('9', translate(left({text}, 1), 'p', '.'), '9V9')) AS v" + BY_ID,
                    "to_char", null),
            new Oracle("to_char format in a filter",
                    "SELECT count(*) AS n" + BY_ID + " AND to_char(u.id, concat('9', translate(left({text}, 1), 'p', '.'), '9V9')) IS NOT NULL",
                    FILTER, null),
            new Oracle("date_trunc unit from a renaming CTE", "WITH s AS (SELECT u.id, u.created, {text} AS k FROM users u)"
                    + " SELECT date_trunc(concat('da', translate(left(s.k, 1), 'p', 'y')), s.created) AS v FROM s WHERE s.id = ?",
                    "date_trunc", null),
            new Oracle("date_part unit in a filter over a derived table",
                    "SELECT count(*) AS n FROM (SELECT u.id, u.created, {text} AS k FROM users u) s WHERE s.id = ?"
                            + " AND date_part(concat('da', translate(left(s.k, 1), 'p', 'y')), s.created) > 0", FILTER, null),
            new Oracle("cast to numeric(1, 0)", "SELECT CAST({number} AS numeric(1, 0)) AS v" + BY_ID, "cast", null),
            new Oracle("round scale", "SELECT round(1.5, {number}) AS v" + BY_ID, "round", ErrorCode.UNBOUNDED_COST),
            new Oracle("factorial", "SELECT factorial({number}) AS v" + BY_ID, "factorial", ErrorCode.UNBOUNDED_COST));

    /**
     * PostgreSQL, a known leak: a CTE read twice is materialized and computes every column, including one the
     * outer query never reads, and the shared renderer does not check the flows of such a column (measured:
     * id 1 answered {@code [[1]]}, id 2 failed with {@code QUERY_FAILED}).
     */
    static final List<Oracle> POSTGRESQL_UNREAD_CTE_COLUMN = List.of(
            new Oracle("date_trunc unit in a CTE read twice whose value is not output",
                    "WITH s AS (SELECT date_trunc(concat('da', translate(left({text}, 1), 'p', 'y')), u.created) AS m" + BY_ID
                            + ") SELECT count(*) AS n FROM s a CROSS JOIN s b", "date_trunc", null));

    /**
     * MariaDB/MySQL: the class of {@code MySqlPartialArgumentTest} and the {@code pow} overflow of issue 24. On
     * MariaDB 10.11 only a position of -2^63 fails {@code nth_value} (0, -1, a numeric string and any
     * {@code crc32} answer NULL), so its oracle reads a numeric secret.
     */
    static final List<Oracle> MYSQL = List.of(
            new Oracle("nth_value position", "SELECT nth_value(u.id, {number}) OVER (ORDER BY u.id) AS v" + BY_ID, "nth_value", null),
            // crc32 is total: 2149508944^40 overflows a DOUBLE, 4329399^40 does not
            new Oracle("pow overflow through total steps", "SELECT pow(crc32({text}), 40) AS v" + BY_ID, "pow", null),
            new Oracle("pow overflow of ascii", "SELECT pow(2, ascii({text}) * 10) AS v" + BY_ID, "ascii", null),
            new Oracle("nth_value position from a renaming CTE", "WITH s AS (SELECT u.id, {number} AS k FROM users u)"
                    + " SELECT nth_value(s.id, s.k) OVER (ORDER BY s.id) AS v FROM s WHERE s.id = ?", "nth_value", null),
            new Oracle("nth_value position in a derived table whose value is not output",
                    "SELECT count(*) AS n FROM (SELECT nth_value(u.id, {number}) OVER (ORDER BY u.id) AS m" + BY_ID + ") t", "nth_value",
                    null),
            new Oracle("nth_value position in an ordering",
                    "SELECT u.id AS v" + BY_ID + " ORDER BY nth_value(u.id, {number}) OVER (ORDER BY u.id)", ORDER, null));

    /**
     * Trino 483: the length cast of {@code TrinoPartialArgumentTest} ({@code varchar(n)}, directly and reached through
     * total steps) and the parameter arguments of {@code TrinoValidatorTest.aSensitiveValueNeverReachesAParameterArgument}
     * (the top-n count of {@code max} and {@code min}, the {@code date_trunc} unit, the {@code lag} and {@code lead}
     * offset, {@code approx_distinct}'s maximum standard error), plus {@code date_format}'s format (a partial
     * function). Trino fails a top-n count below 1 ("second argument of max_n must be positive"), a negative offset,
     * an unknown unit, an error outside [0.0040625, 0.26] and a number whose text does not fit the length. The
     * {@code char(n)} cast of that test is refused too, but is no oracle on Trino 483 (measured): a number has no cast
     * to {@code char(n)} at all ("Cannot cast bigint to char(4)", refused at analysis whatever the value), and a
     * {@code varchar} is cut to the length without failing.
     */
    static final List<Oracle> TRINO = List.of(
            new Oracle("top-n max count", "SELECT max(u.id, {number}) AS v" + BY_ID, "max", null),
            // the validator test's shape: total steps (ltrim, length) between the secret and the count; 0 for 'pabc'
            new Oracle("top-n max count through total steps",
                    "SELECT max(u.id, length(ltrim({text}, 'abcdefghijklmnopqrstuvwxyz'))) AS v" + BY_ID, "max", null),
            new Oracle("top-n min count", "SELECT min(u.id, {number}) AS v" + BY_ID, "min", null),
            new Oracle("date_trunc unit through total steps",
                    "SELECT date_trunc(concat('da', ltrim({text}, 'abcdefghijklmnopqrstuvwxyz'), 'y'), u.created) AS v" + BY_ID,
                    "date_trunc", null),
            new Oracle("lag offset", "SELECT lag(u.id, {number}) OVER (ORDER BY u.id) AS v" + BY_ID, "lag", null),
            new Oracle("lead offset", "SELECT lead(u.id, {number}, 0) OVER (ORDER BY u.id) AS v" + BY_ID, "lead", null),
            // the maximum standard error must lie in [0.0040625, 0.26]: the smallest BIGINT and 5 fail, NULL answers
            new Oracle("approx_distinct error", "SELECT approx_distinct(u.id, {number}) AS v" + BY_ID, "approx_distinct", null),
            new Oracle("date_format format",
                    "SELECT date_format(u.created, concat('%', ltrim({text}, 'abcdefghijklmnopqrstuvwxyz'), 'Y')) AS v" + BY_ID,
                    "date_format", null),
            new Oracle("cast to varchar(3)", "SELECT CAST({number} AS varchar(3)) AS v" + BY_ID, "cast", null),
            // the adapter test's shape: a total cast and length, then a length cast; '20' (the smallest BIGINT's
            // 20 characters) does not fit varchar(1), '1' does
            new Oracle("cast to varchar(1) through total steps",
                    "SELECT CAST(length(CAST({number} AS varchar)) AS varchar(1)) AS v" + BY_ID, "cast", null),
            // lineage through a renaming CTE, a derived table into a filter, and an ordering
            new Oracle("date_trunc unit from a renaming CTE", "WITH s AS (SELECT u.id, u.created, {text} AS k FROM users u)"
                    + " SELECT date_trunc(concat('da', ltrim(s.k, 'abcdefghijklmnopqrstuvwxyz'), 'y'), s.created) AS v FROM s"
                    + " WHERE s.id = ?", "date_trunc", null),
            new Oracle("length cast in a filter over a derived table",
                    "SELECT count(*) AS n FROM (SELECT u.id, {number} AS k FROM users u) s WHERE s.id = ?"
                            + " AND CAST(s.k AS varchar(3)) IS NOT NULL", FILTER, null),
            new Oracle("lag offset in an ordering",
                    "SELECT u.id AS v" + BY_ID + " ORDER BY lag(u.id, {number}) OVER (ORDER BY u.id)", ORDER, null));

    private final Map<String, List<Oracle>> sources = new LinkedHashMap<>();
    private final Map<String, String> blocks = new LinkedHashMap<>();
    private final Map<String, String> policies = new LinkedHashMap<>();
    private String pgSchema;
    private String mysqlDatabase;
    private String trinoUrl;
    private String trinoSchema;

    private PartialOracles() {
    }

    static PartialOracles create(Path folder) throws SQLException {
        PartialOracles oracles = new PartialOracles();
        try {
            oracles.duckdb(folder.resolve("oracles.duckdb"));
            oracles.postgres();
            oracles.mysql();
        } catch (SQLException | RuntimeException e) {
            oracles.close();
            throw e;
        }
        return oracles;
    }

    /**
     * The {@code users} table in a new schema of the Trino cluster at {@code url} (trino-test-cluster's, whose
     * access control lets {@code admin} write and {@code sqlguard_ro} read the memory catalog), as the one source
     * {@code oracles_trino} read by {@code sqlguard_ro}.
     */
    static PartialOracles trino(String url) throws SQLException {
        PartialOracles oracles = new PartialOracles();
        oracles.trinoUrl = url;
        oracles.trinoSchema = ServerAccounts.unique();
        try (Connection c = trinoAdmin(url); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA memory." + oracles.trinoSchema);
            s.execute("CREATE TABLE memory." + oracles.trinoSchema + ".users (id bigint, note varchar, password varchar,"
                    + " created timestamp(3), score bigint, ssn bigint)");
            s.execute("INSERT INTO memory." + oracles.trinoSchema + ".users VALUES " + rows(SMALLEST));
        } catch (SQLException | RuntimeException e) {
            oracles.close();
            throw e;
        }
        oracles.sources.put("oracles_trino", TRINO);
        oracles.blocks.put("oracles_trino", "    engine: trino\n    url: " + url + "\n    user: sqlguard_ro\n    catalog: memory\n"
                + "    schema: " + oracles.trinoSchema + "\n");
        return oracles;
    }

    private static Connection trinoAdmin(String url) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "admin");
        return DriverManager.getConnection(url, p);
    }

    /** The sources, in the order DuckDB, PostgreSQL, MySQL (those whose server this machine runs), or Trino's. */
    List<String> sources() {
        return List.copyOf(sources.keySet());
    }

    /** The oracles of one source's engine. */
    List<Oracle> oracles(String source) {
        return sources.get(source);
    }

    /** A configuration with every source, each with every column of {@code users} and the engine's default functions. */
    String config() {
        StringBuilder yaml = new StringBuilder("sources:\n");
        blocks.forEach((name, block) -> yaml.append("  ").append(name).append(":\n").append(block)
                .append("    policy:\n      tables: {users: [\"*\"]}\n").append(policies.getOrDefault(name, "")));
        return yaml.toString();
    }

    /** A result without what differs between two calls by design: the call's id and its elapsed time. */
    static JsonNode withoutCallFields(JsonNode result) {
        ObjectNode copy = result.deepCopy();
        copy.remove("id");
        copy.remove("elapsed_ms");
        return copy;
    }

    private static String rows(String smallest) {
        return "(1, 'pabc', 'pabc', TIMESTAMP '2024-03-05 10:00:00', " + smallest + ", " + smallest + "), "
                + "(2, 'Qab!', 'Qab!', TIMESTAMP '2024-03-05 10:00:00', 5, 5), "
                + "(3, NULL, NULL, TIMESTAMP '2024-03-05 10:00:00', NULL, NULL)";
    }

    private static final String SMALLEST = "-9223372036854775807 - 1";

    private void duckdb(Path file) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE users (id BIGINT, note VARCHAR, password VARCHAR, created TIMESTAMP, score BIGINT, ssn BIGINT)");
            s.execute("INSERT INTO users VALUES " + rows(SMALLEST));
        }
        sources.put("oracles_duckdb", DUCKDB);
        blocks.put("oracles_duckdb", "    engine: duckdb\n    database: " + file + "\n");
    }

    private void postgres() throws SQLException {
        if (ServerAccounts.postgresUrl().isEmpty()) {
            return;
        }
        pgSchema = ServerAccounts.unique();
        try (Connection c = ServerAccounts.postgresAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + pgSchema);
            s.execute("CREATE TABLE " + pgSchema + ".users (id bigint, note text, password text, created timestamptz, score bigint, ssn bigint)");
            s.execute("INSERT INTO " + pgSchema + ".users VALUES " + rows(SMALLEST));
            s.execute("ALTER TABLE " + pgSchema + ".users ADD COLUMN born date, ADD COLUMN since date");
            s.execute("UPDATE " + pgSchema + ".users SET since = CASE id WHEN 1 THEN DATE '294277-01-01' WHEN 2 THEN DATE '2020-01-01' END,"
                    + " born = CASE id WHEN 1 THEN DATE '294277-01-01' WHEN 2 THEN DATE '2020-01-01' END");
            ServerAccounts.grantPostgresRead(s, pgSchema);
        }
        sources.put("oracles_postgresql", POSTGRESQL);
        policies.put("oracles_postgresql", "      redact: [born]\n");
        blocks.put("oracles_postgresql", ServerAccounts.postgresSource(pgSchema));
    }

    private void mysql() throws SQLException {
        if (ServerAccounts.mysqlUrl().isEmpty()) {
            return;
        }
        mysqlDatabase = ServerAccounts.unique();
        try (Connection c = ServerAccounts.mysqlAdmin(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + mysqlDatabase + "`");
            s.execute("CREATE TABLE `" + mysqlDatabase + "`.users (id BIGINT, note VARCHAR(32), password VARCHAR(32), created DATETIME,"
                    + " score BIGINT, ssn BIGINT)");
            s.execute("INSERT INTO `" + mysqlDatabase + "`.users VALUES " + rows(SMALLEST));
        }
        sources.put("oracles_mysql", MYSQL);
        blocks.put("oracles_mysql", ServerAccounts.mysqlSource(mysqlDatabase));
    }

    @Override
    public void close() throws SQLException {
        ServerAccounts.drop(pgSchema, mysqlDatabase);
        if (trinoSchema != null) {
            try (Connection c = trinoAdmin(trinoUrl); Statement s = c.createStatement()) {
                s.execute("DROP TABLE IF EXISTS memory." + trinoSchema + ".users");
                s.execute("DROP SCHEMA IF EXISTS memory." + trinoSchema);
            }
        }
    }
}
