package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.SetOperationList;

/**
 * Drives the validator with arbitrary text. It may only refuse with a GuardException; anything it
 * accepts must render to one SELECT (a block, a set operation, with or without WITH) that passes the
 * raw-text pre-check itself (no comments, no ambiguous quoting) and parses back to a query. Runs its seed corpus under plain
 * {@code mvn verify}; {@code JAZZER_FUZZ=1} fuzzes (see docs/engines/mysql.md).
 */
class ValidatorFuzzTest {
    private static final MySqlValidator VALIDATOR = TestSchemas.validator();
    private static final List<String> SEEDS = List.of(
            "SELECT region, count(*) AS n FROM claims WHERE id > ? GROUP BY region ORDER BY n DESC LIMIT 5",
            "SELECT c.id, r.manager FROM claims c LEFT JOIN regions r ON c.region = r.region",
            "SELECT id FROM claims /*! UNION SELECT password FROM users */",
            "SELECT CASE WHEN amount > 1 THEN 'a' ELSE 'b' END AS k FROM claims",
            "WITH x AS (SELECT id, region FROM claims WHERE amount > ?) SELECT region, count(*) AS n FROM x GROUP BY region",
            "SELECT id FROM claims WHERE region IN (SELECT region FROM regions) UNION SELECT id FROM users ORDER BY 1",
            "SELECT t.r, rank() OVER (ORDER BY t.n DESC) AS k FROM (SELECT region AS r, count(*) AS n FROM claims GROUP BY region) t");

    @FuzzTest(maxDuration = "5m")
    void onlyGuardExceptionsAndOnlySelects(FuzzedDataProvider data) {
        String sql = data.consumeBoolean() ? SEEDS.get(data.consumeInt(0, SEEDS.size() - 1)) + data.consumeRemainingAsString()
                : data.consumeRemainingAsString();
        int placeholders = (int) sql.chars().filter(c -> c == '?').count();
        QueryPlan plan;
        try {
            plan = VALIDATOR.validate(QueryRequest.of("src", sql, java.util.Collections.nCopies(Math.min(placeholders, 50), (Object) 1L)));
        } catch (GuardException refused) {
            return;
        }
        String rendered = plan.executableSql();
        assertThat(rendered).matches("(?s)(SELECT |WITH |\\(SELECT ).*");
        // the rendered text has no comment, no ambiguous quoting; its depth is bounded by the renderer, not the input bound
        SqlPrecheck.check(rendered, Integer.MAX_VALUE, Integer.MAX_VALUE);
        Statement reparsed = MySqlValidator.parseOne(rendered);
        assertThat(reparsed).isInstanceOfAny(PlainSelect.class, SetOperationList.class);
    }
}
