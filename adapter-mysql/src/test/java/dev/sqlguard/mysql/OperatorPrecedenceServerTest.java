package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.mysql.internal.ServerFlavor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * No precedence differential: every pair and triple of operators, with NOT before every operand
 * of the pairs, is evaluated raw on the server and through the engine. Each expression must give the
 * same value (for every row of a table holding all combinations of 0, 1, 2 and NULL), or be refused
 * by the guard; a text the server refuses must never run guarded.
 */
@Tag("mysql")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(900)
class OperatorPrecedenceServerTest {
    /** An operator in a chain: its text after the left operand, and whether a right operand follows. */
    private record Op(String text, boolean takesRight) {
    }

    private static final List<Op> OPERATORS = List.of(
            infix("="), infix("<=>"), infix("<>"), infix("!="), infix("<"), infix("<="), infix(">"), infix(">="),
            infix("AND"), infix("OR"), infix("XOR"),
            infix("+"), infix("-"), infix("*"), infix("/"), infix("DIV"), infix("MOD"), infix("%"),
            infix("&"), infix("|"), infix("^"), infix("<<"), infix(">>"), infix("LIKE"),
            new Op(" BETWEEN 1 AND ", true), new Op(" NOT BETWEEN 0 AND ", true),
            new Op(" IN (1, 2)", false), new Op(" NOT IN (0, 2)", false),
            new Op(" IS NULL", false), new Op(" IS NOT NULL", false), new Op(" IS TRUE", false));

    private static final String[] COLUMNS = {"a", "b", "c", "d"};
    private static final String[][] LITERALS = {{"1", "0", "2", "1"}, {"2", "1", "1", "0"}};

    private String database;
    private Engine engine;
    private Connection raw;
    private final List<String> mismatches = new ArrayList<>();
    private int compared;
    private int refused;

    private static Op infix(String op) {
        return new Op(" " + op + " ", true);
    }

    @BeforeAll
    void setUp() throws Exception {
        assumeTrue(TestServer.available(), "no MySQL-compatible server");
        database = TestServer.createDatabase();
        try (Connection c = TestServer.admin(database); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ops (id INT PRIMARY KEY, a INT, b INT, c INT, d INT)");
            s.execute("CREATE TABLE v (x INT)");
            s.execute("INSERT INTO v VALUES (0), (1), (2), (NULL)");
            s.execute("INSERT INTO ops SELECT ROW_NUMBER() OVER (ORDER BY w.x, y.x, z.x, u.x), w.x, y.x, z.x, u.x"
                    + " FROM v w, v y, v z, v u");
        }
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Map.of("ops", List.of("*"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults().withMaxRows(1000));
        engine = new MySqlEngineFactory().create(new EngineConfig("db", TestServer.properties(database, false), policy),
                EngineContext.of(Path.of("target")));
        raw = TestServer.admin(database);
        try (Statement s = raw.createStatement()) {
            s.execute("SET SESSION sql_mode = '" + ServerFlavor.SQL_MODE + "'");
        }
    }

    @AfterAll
    void tearDown() throws SQLException {
        if (engine != null) {
            engine.close();
        }
        if (raw != null) {
            raw.close();
        }
        if (database != null) {
            TestServer.dropDatabase(database);
        }
    }

    @Test
    void theRedTeamExamplesAreRefusedOrAgree() {
        for (String sql : List.of("SELECT 0 = NOT 0", "SELECT 1 OR 1 XOR 1", "SELECT id FROM ops WHERE ! a > 1 ORDER BY id",
                "SELECT id FROM ops WHERE a = 1 OR b = 2 XOR c > 1 ORDER BY id", "SELECT 1 && 0 || 1", "SELECT NOT 1 + 1",
                "SELECT id FROM ops WHERE NOT a IS NULL ORDER BY id", "SELECT 1 = 1 IS NULL")) {
            compare(sql);
        }
        assertThat(mismatches).isEmpty();
        assertThat(guarded("SELECT 0 = NOT 0")).isEmpty();
        // honest forms still run
        assertThat(guarded("SELECT id FROM ops WHERE a = 1 AND b + 1 * c > 2 OR NOT d = 0 ORDER BY id")).isPresent();
        assertThat(guarded("SELECT id FROM ops WHERE (a = 1 OR b = 2) XOR c > 1 ORDER BY id")).isPresent();
    }

    @Test
    void everyPairWithNotBeforeAnyOperandAgreesOrIsRefused() {
        for (Op first : OPERATORS) {
            for (Op second : OPERATORS) {
                List<Op> ops = List.of(first, second);
                int operands = operandCount(ops);
                for (int nots = 0; nots < 1 << operands; nots++) {
                    String tableExpr = chain(ops, COLUMNS, nots);
                    compare("SELECT id, " + tableExpr + " AS v FROM ops ORDER BY id");
                    compare("SELECT id FROM ops WHERE " + tableExpr + " ORDER BY id");
                    for (String[] literals : LITERALS) {
                        compare("SELECT " + chain(ops, literals, nots) + " AS v");
                    }
                }
            }
        }
        System.out.println("precedence: " + compared + " compared, " + refused + " refused");
        report();
    }

    @Test
    void everyTripleAgreesOrIsRefused() {
        for (Op first : OPERATORS) {
            for (Op second : OPERATORS) {
                for (Op third : OPERATORS) {
                    compare("SELECT id, " + chain(List.of(first, second, third), COLUMNS, 0) + " AS v FROM ops ORDER BY id");
                }
            }
        }
        System.out.println("precedence: " + compared + " compared, " + refused + " refused");
        report();
    }

    private void report() {
        assertThat(mismatches).as("%d compared, %d refused; first mismatches", compared, refused)
                .isEmpty();
        // a guard that refused everything would pass the loop above: most arithmetic and boolean chains must run
        assertThat(compared).isGreaterThan(refused / 20);
        assertThat(compared).isGreaterThan(500);
    }

    private static int operandCount(List<Op> ops) {
        int n = 1;
        for (Op op : ops) {
            n += op.takesRight() ? 1 : 0;
        }
        return n;
    }

    /** operand op operand op ..., with NOT before operand i when bit i of nots is set. */
    private static String chain(List<Op> ops, String[] operands, int nots) {
        StringBuilder out = new StringBuilder();
        int k = 0;
        out.append((nots & 1) != 0 ? "NOT " : "").append(operands[k++]);
        for (Op op : ops) {
            out.append(op.text());
            if (op.takesRight()) {
                out.append((nots & (1 << k)) != 0 ? "NOT " : "").append(operands[k++]);
            }
        }
        return out.toString();
    }

    private void compare(String sql) {
        Optional<List<List<String>>> guarded;
        try {
            guarded = guarded(sql);
        } catch (GuardException e) {
            // the server refused the guard's SQL: the raw text must fail too
            Optional<List<List<String>>> rawRows = raw(sql);
            if (rawRows.isPresent()) {
                record(sql, "guarded failed with " + e.code() + ", raw ran");
            }
            compared++;
            return;
        }
        if (guarded.isEmpty()) {
            refused++;
            return;
        }
        compared++;
        Optional<List<List<String>>> rawRows = raw(sql);
        if (rawRows.isEmpty()) {
            record(sql, "raw is refused by the server, guarded ran");
        } else if (!rawRows.get().equals(guarded.get())) {
            record(sql, "raw " + cut(rawRows.get()) + " guarded " + cut(guarded.get()));
        }
    }

    private void record(String sql, String what) {
        if (mismatches.size() < 40) {
            mismatches.add(sql + " -> " + what);
        }
    }

    private static String cut(List<List<String>> rows) {
        String s = rows.toString();
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }

    /** The guarded rows, or empty when the guard refused the text before the server saw it. */
    private Optional<List<List<String>>> guarded(String sql) {
        QueryPlan plan;
        try {
            plan = engine.validator().validate(QueryRequest.of("db", sql));
        } catch (GuardException e) {
            return Optional.empty();
        }
        List<List<String>> rows = new ArrayList<>();
        try (ResultCursor cursor = engine.execution().execute(plan)) {
            int n = cursor.columns().size();
            while (cursor.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    row.add(normal(cursor.get(i)));
                }
                rows.add(row);
            }
        }
        return Optional.of(rows);
    }

    private Optional<List<List<String>>> raw(String sql) {
        List<List<String>> rows = new ArrayList<>();
        try (Statement s = raw.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(normal(rs.getObject(i)));
                }
                rows.add(row);
            }
        } catch (SQLException e) {
            return Optional.empty();
        }
        return Optional.of(rows);
    }

    private static String normal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof BigDecimal b) {
            return b.stripTrailingZeros().toPlainString();
        }
        if (v instanceof Number n && !(v instanceof Double) && !(v instanceof Float)) {
            return new BigDecimal(n.toString()).toPlainString();
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        return v.toString();
    }
}
