package dev.sqlguard.trino;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.testing.FixtureEngine;
import dev.sqlguard.testing.HonestCorpus;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

/**
 * Random queries from the grammar the renderer supports (seeded: {@code -Dsqlguard.fuzz.seed} and
 * {@code -Dsqlguard.fuzz.count} reproduce or widen a run), each checked two ways: (a) the rendered
 * text re-parses to the same tree (JSqlParser prints it back unchanged, so the parser reads every
 * rendered parenthesis, name and literal as written), and (b) on the cluster, the guarded answer
 * equals the raw one: the same rows (in order when the query orders every output), or the same
 * count for a LIMIT without ORDER BY, and a failure where the raw query fails.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(600)
class TrinoRendererFuzzTest {
    private static final long SEED = Long.getLong("sqlguard.fuzz.seed", 17L);
    private static final int COUNT = Integer.getInteger("sqlguard.fuzz.count", 50);

    private FixtureEngine<TrinoFixture> fuzz;
    private final QueryService service = new QueryService(AuditSink.discarding());

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        fuzz = FixtureEngine.open(new TrinoFixture(TestCluster.READ_ONLY), "fuzz", FixtureEngine.plainPolicy(Map.of(
                "claims", FixtureEngine.PLAIN_COLUMNS.get("claims"), "regions", FixtureEngine.PLAIN_COLUMNS.get("regions"))));
    }

    @AfterAll
    void stop() {
        if (fuzz != null) {
            fuzz.close();
        }
    }

    @Test
    void renderedQueriesReparseAndAnswerLikeTheRawOnes() throws Exception {
        Generator gen = new Generator(new Random(SEED));
        List<String> refused = new ArrayList<>();
        List<String> reparse = new ArrayList<>();
        List<String> different = new ArrayList<>();
        int compared = 0;
        for (int i = 0; i < COUNT; i++) {
            Generator.Query q = gen.query();
            QueryRequest request = QueryRequest.of("fuzz", q.sql());
            QueryPlan plan;
            try {
                plan = fuzz.engine().validator().validate(request);
            } catch (GuardException e) {
                refused.add(q.sql() + " -> " + e.code() + " " + e.safeMessage());
                continue;
            }
            String rendered = plan.executableSql();
            String reprinted = CCJSqlParserUtil.parse(rendered).toString();
            if (!spaces(reprinted).equals(spaces(rendered))) {
                reparse.add(rendered + "\n  reprinted " + reprinted);
            }
            Raw raw = raw(q.sql());
            ToolResult guarded = service.query(fuzz.engine().binding(), request);
            if (raw.rows() == null) {
                if (guarded.status() == ToolStatus.OK) {
                    different.add(q.sql() + "\n  raw failed: " + raw.error() + "\n  guarded " + guarded.rows());
                }
                continue;
            }
            if (guarded.status() == ToolStatus.NO_EVIDENCE && raw.rows().isEmpty()) {
                compared++;
                continue;
            }
            if (guarded.status() != ToolStatus.OK) {
                different.add(q.sql() + "\n  raw " + raw.rows() + "\n  guarded " + guarded.status() + " "
                        + guarded.error().map(e -> e.code() + " " + e.message()).orElse(""));
                continue;
            }
            compared++;
            List<List<String>> actual = guarded.rows().stream().map(r -> r.stream().map(HonestCorpus::plainCell).toList()).toList();
            boolean same = switch (q.order()) {
                case TOTAL -> actual.equals(raw.rows());
                case NONE -> sorted(actual).equals(sorted(raw.rows()));
                case COUNT_ONLY -> actual.size() == raw.rows().size();
            };
            if (!same) {
                different.add(q.sql() + "\n  raw     " + raw.rows() + "\n  guarded " + actual);
            }
        }
        System.out.printf("renderer fuzz (seed %d): %d generated, %d compared, %d refused%n", SEED, COUNT, compared, refused.size());
        assertThat(reparse).as("rendered texts that do not re-parse to the same tree").isEmpty();
        assertThat(different).as("guarded answers that differ from the raw ones").isEmpty();
        assertThat(refused).as("generated from the supported grammar, so none may be refused").isEmpty();
        assertThat(compared).as("queries whose rows were compared").isGreaterThanOrEqualTo(COUNT * 3 / 4);
    }

    private record Raw(List<List<String>> rows, String error) {
    }

    private Raw raw(String sql) {
        List<List<String>> rows = new ArrayList<>();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, fuzz.fixture().schema()); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(HonestCorpus.plainCell(rs.getObject(i)));
                }
                rows.add(row);
            }
            return new Raw(rows, null);
        } catch (SQLException e) {
            return new Raw(null, e.getMessage());
        }
    }

    private static String spaces(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }

    private static List<List<String>> sorted(List<List<String>> rows) {
        List<List<String>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(Object::toString));
        return out;
    }

    /** A small typed generator over claims (c) and regions (r). */
    static final class Generator {
        enum Type { NUM, STR, DATE, BOOL }

        enum Order { TOTAL, NONE, COUNT_ONLY }

        record Query(String sql, Order order) {
        }

        private record Col(String name, Type type) {
        }

        private static final List<Col> CLAIMS = List.of(new Col("id", Type.NUM), new Col("region", Type.STR),
                new Col("amount", Type.NUM), new Col("status", Type.STR), new Col("created", Type.DATE));
        private static final List<String> REGIONS = List.of("north", "south", "east", "west");
        private static final List<String> STATUSES = List.of("APPROVED", "DENIED", "PENDING");

        private final Random random;
        private List<Col> columns;

        Generator(Random random) {
            this.random = random;
        }

        Query query() {
            String from = from();
            return random.nextInt(3) == 0 ? aggregate(from) : plain(from);
        }

        private String from() {
            columns = new ArrayList<>();
            for (Col c : CLAIMS) {
                columns.add(new Col("c." + c.name(), c.type()));
            }
            switch (random.nextInt(5)) {
                case 0, 1 -> {
                    return "claims c";
                }
                case 2 -> {
                    columns.add(new Col("r.manager", Type.STR));
                    return "claims c " + pick("JOIN", "LEFT JOIN", "INNER JOIN") + " regions r ON c.region = r.region";
                }
                case 3 -> {
                    return "(SELECT id, region, amount, status, created FROM claims WHERE " + pick("id > 5", "amount > 1000",
                            "status <> 'DENIED'", "created >= DATE '2024-02-01'") + ") c";
                }
                default -> {
                    return "claims c WHERE " + predicate(2) + " AND 1 = 1";
                }
            }
        }

        private Query plain(String from) {
            int n = 1 + random.nextInt(3);
            List<String> items = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                items.add(expr(Type.values()[random.nextInt(3)], 2) + " AS a" + i);
            }
            StringBuilder sql = new StringBuilder("SELECT ").append(random.nextInt(6) == 0 ? "DISTINCT " : "").append(String.join(", ", items));
            sql.append(" FROM ").append(from);
            if (!from.contains(" WHERE ") && random.nextBoolean()) {
                sql.append(" WHERE ").append(predicate(2));
            }
            return tail(sql, n);
        }

        private Query aggregate(String from) {
            List<String> keys = new ArrayList<>();
            int k = 1 + random.nextInt(2);
            for (int i = 0; i < k; i++) {
                keys.add(random.nextBoolean() ? column(Type.STR) : expr(Type.values()[random.nextInt(3)], 1));
            }
            List<String> items = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                items.add(keys.get(i) + " AS k" + i);
            }
            int m = 1 + random.nextInt(2);
            for (int i = 0; i < m; i++) {
                items.add(pick("count(*)", "sum(c.amount)", "avg(c.id)", "min(c.region)", "max(c.created)", "count(DISTINCT c.status)",
                        "count_if(c.amount > 20000)", "sum(c.amount) FILTER (WHERE c.status = 'APPROVED')", "round(avg(c.amount), 1)")
                        + " AS m" + i);
            }
            StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", items)).append(" FROM ").append(from);
            if (!from.contains(" WHERE ") && random.nextBoolean()) {
                sql.append(" WHERE ").append(predicate(1));
            }
            List<String> groups = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                groups.add(random.nextBoolean() ? Integer.toString(i + 1) : keys.get(i));
            }
            sql.append(" GROUP BY ").append(String.join(", ", groups));
            if (random.nextInt(3) == 0) {
                sql.append(" HAVING count(*) > ").append(random.nextInt(5));
            }
            return tail(sql, k + m);
        }

        private Query tail(StringBuilder sql, int outputs) {
            switch (random.nextInt(4)) {
                case 0 -> {
                    return new Query(sql.toString(), Order.NONE);
                }
                case 1 -> {
                    sql.append(" LIMIT ").append(1 + random.nextInt(10));
                    return new Query(sql.toString(), Order.COUNT_ONLY);
                }
                default -> {
                    List<String> keys = new ArrayList<>();
                    for (int i = 1; i <= outputs; i++) {
                        keys.add(i + pick("", " ASC", " DESC", " NULLS FIRST", " DESC NULLS LAST"));
                    }
                    sql.append(" ORDER BY ").append(String.join(", ", keys));
                    if (random.nextBoolean()) {
                        sql.append(" LIMIT ").append(1 + random.nextInt(20));
                    }
                    return new Query(sql.toString(), Order.TOTAL);
                }
            }
        }

        private String column(Type type) {
            List<Col> of = columns.stream().filter(c -> c.type() == type).toList();
            return of.get(random.nextInt(of.size())).name();
        }

        private String expr(Type type, int depth) {
            if (depth == 0 || random.nextInt(3) == 0) {
                return random.nextInt(5) == 0 ? literal(type) : column(type);
            }
            return switch (type) {
                case NUM -> switch (random.nextInt(7)) {
                    case 0 -> expr(Type.NUM, depth - 1) + " " + pick("+", "-", "*") + " " + expr(Type.NUM, depth - 1);
                    case 1 -> "length(" + expr(Type.STR, depth - 1) + ")";
                    case 2 -> "abs(" + expr(Type.NUM, depth - 1) + ")";
                    case 3 -> "round(" + expr(Type.NUM, depth - 1) + ", 1)";
                    case 4 -> "year(" + expr(Type.DATE, depth - 1) + ")";
                    case 5 -> "CASE WHEN " + predicate(depth - 1) + " THEN " + expr(Type.NUM, depth - 1) + " ELSE " + literal(Type.NUM) + " END";
                    default -> "coalesce(" + expr(Type.NUM, depth - 1) + ", 0)";
                };
                case STR -> switch (random.nextInt(6)) {
                    case 0 -> "upper(" + expr(Type.STR, depth - 1) + ")";
                    case 1 -> "lower(" + expr(Type.STR, depth - 1) + ")";
                    case 2 -> expr(Type.STR, depth - 1) + " || '-' || " + expr(Type.STR, depth - 1);
                    case 3 -> "coalesce(" + expr(Type.STR, depth - 1) + ", 'none')";
                    case 4 -> "substr(" + expr(Type.STR, depth - 1) + ", 1, 3)";
                    default -> "CASE " + column(Type.STR) + " WHEN 'north' THEN 'N' WHEN 'APPROVED' THEN 'A' ELSE " + expr(Type.STR, depth - 1) + " END";
                };
                case DATE -> switch (random.nextInt(3)) {
                    case 0 -> "date_trunc('month', " + expr(Type.DATE, depth - 1) + ")";
                    case 1 -> expr(Type.DATE, depth - 1) + " + INTERVAL '" + random.nextInt(40) + "' DAY";
                    default -> column(Type.DATE);
                };
                case BOOL -> predicate(depth - 1);
            };
        }

        private String predicate(int depth) {
            int choice = random.nextInt(depth > 0 ? 10 : 7);
            return switch (choice) {
                case 0 -> column(Type.NUM) + " " + pick("=", "<>", "<", "<=", ">", ">=") + " " + literal(Type.NUM);
                case 1 -> column(Type.STR) + " = " + literal(Type.STR);
                case 2 -> column(Type.STR) + pick(" IN ", " NOT IN ") + "('north', 'east', 'APPROVED')";
                case 3 -> column(Type.NUM) + pick(" BETWEEN ", " NOT BETWEEN ") + random.nextInt(30) + " AND " + (30 + random.nextInt(40000));
                case 4 -> column(Type.STR) + pick(" LIKE ", " NOT LIKE ") + pick("'n%'", "'%e%'", "'_o%'", "'A%'");
                case 5 -> column(Type.STR) + pick(" IS NULL", " IS NOT NULL");
                case 6 -> column(Type.DATE) + " " + pick("<", ">=") + " DATE '2024-0" + (1 + random.nextInt(6)) + "-1" + random.nextInt(10) + "'";
                case 7 -> "(" + predicate(depth - 1) + pick(" AND ", " OR ") + predicate(depth - 1) + ")";
                case 8 -> "NOT (" + predicate(depth - 1) + ")";
                default -> pick("EXISTS (SELECT 1 FROM regions r2 WHERE r2.region = c.region AND r2.manager " + pick("LIKE 'S%'", "<> 'Wes'") + ")",
                        "c.id IN (SELECT id FROM claims WHERE amount > " + random.nextInt(50000) + ")",
                        "c.amount > (SELECT avg(amount) FROM claims)");
            };
        }

        private String literal(Type type) {
            return switch (type) {
                case NUM -> Integer.toString(random.nextInt(100));
                case STR -> "'" + pick(REGIONS.get(random.nextInt(4)), STATUSES.get(random.nextInt(3)), "it''s") + "'";
                case DATE -> "DATE '2024-0" + (1 + random.nextInt(9)) + "-0" + (1 + random.nextInt(9)) + "'";
                case BOOL -> pick("true", "false");
            };
        }

        private String pick(String... options) {
            return options[random.nextInt(options.length)];
        }
    }
}
