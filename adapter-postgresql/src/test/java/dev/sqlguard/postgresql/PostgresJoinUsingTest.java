package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.postgresql.internal.FunctionCatalog;
import dev.sqlguard.postgresql.internal.PostgresValidator;

/**
 * The rendering of {@code JOIN ... USING} and {@code NATURAL JOIN} as {@code ON} with an explicit
 * merged column is exactly PostgreSQL's own: for each join kind and pairs of key types that differ
 * (the merged column then has their common type, resolved left first), the rendered statement gives
 * the server's column types, column order and values, NULL rows of outer joins included.
 */
@Tag("postgresql")
@Timeout(120)
class PostgresJoinUsingTest {
    private static final List<String> KINDS = List.of("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN");
    private static final List<List<String>> TYPES = List.of(List.of("integer", "integer"), List.of("integer", "bigint"),
            List.of("bigint", "integer"), List.of("integer", "numeric"), List.of("numeric", "integer"), List.of("char(4)", "text"),
            List.of("text", "char(4)"), List.of("varchar(3)", "char(4)"), List.of("char(4)", "varchar(3)"));

    private final PostgresValidator validator = new PostgresValidator("t", SchemaSnapshot.of("public", List.of()),
            new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id"))), Set.of(), Set.of(), Set.of(), Limits.defaults())
                    .withFunctions(FunctionCatalog.defaults()), null);

    static Stream<Arguments> joins() {
        List<Arguments> out = new ArrayList<>();
        for (String kind : KINDS) {
            for (List<String> types : TYPES) {
                String left = "(SELECT CAST(g AS " + types.get(0) + ") AS k, g * 10 AS lv FROM generate_series(1, 3) g) a";
                String right = "(SELECT CAST(g AS " + types.get(1) + ") AS k, g * 100 AS rv FROM generate_series(2, 4) g) b";
                out.add(Arguments.of("SELECT *, k AS again, a.k AS ak, b.k AS bk FROM " + left + " " + kind + " " + right + " USING (k)"));
                out.add(Arguments.of("SELECT * FROM " + left + " NATURAL " + kind.replace("JOIN", "").strip() + " JOIN " + right));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("joins")
    void theRenderedJoinHasTheServersTypesColumnsAndRows(String sql) throws SQLException {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        String rendered = validator.validate(new QueryRequest("t", sql, List.of(), "u")).executableSql();
        assertThat(rendered).doesNotContain("USING").doesNotContain("NATURAL");
        try (Connection c = TestServer.admin(TestServer.defaults()); Statement s = c.createStatement()) {
            assertThat(run(s, rendered)).isEqualTo(run(s, sql));
        }
    }

    /** Column labels and type names, then every row as text, sorted. */
    private static List<String> run(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                out.add(md.getColumnLabel(i) + " " + md.getColumnTypeName(i));
            }
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.append('[').append(rs.getString(i)).append(']');
                }
                rows.add(row.toString());
            }
        }
        rows.sort(null);
        out.addAll(rows);
        return out;
    }
}
