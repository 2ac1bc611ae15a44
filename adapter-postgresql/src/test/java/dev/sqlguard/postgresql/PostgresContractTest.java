package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.testing.ContractDataset;
import dev.sqlguard.testing.EngineContractSuite;
import dev.sqlguard.testing.EngineFixture;

/** The engine contract on the local PostgreSQL (SQLGUARD_PG_URL) with the least-privilege role. */
@Tag("postgresql")
class PostgresContractTest extends EngineContractSuite {
    @Override
    protected EngineFixture createFixture() throws Exception {
        assumeTrue(TestServer.available(), "no PostgreSQL server");
        return new PostgresFixture(false);
    }

    /**
     * The server plans the text as written over the visible columns only (each table that hides one as the derived
     * table of its visible columns): with claims.region hidden, NATURAL joins regions and claims on no column, a
     * bare region inside a subquery over claims is the outer regions.region, and a GROUP BY on claims' primary key,
     * which vouches for its other columns on the table but not through a derived table, still answers.
     */
    @Test
    void theTextAsWrittenIsPlannedOverTheVisibleColumns() {
        Map<String, List<String>> tables = new TreeMap<>();
        tables.put("claims", List.of("id", "amount", "status", "created"));
        tables.put("regions", List.of("region", "manager"));
        Engine engine = engine(new GuardrailPolicy(TableAllowlist.of(tables), POLICY_FUNCTIONS, Set.of(), Set.of(), Limits.defaults()));
        ToolResult natural = run(engine, "SELECT count(*) AS n FROM regions r NATURAL JOIN claims c");
        assertThat(natural.error()).isEmpty();
        assertThat(natural.rows()).isEqualTo(run(engine, "SELECT count(*) AS n FROM regions r CROSS JOIN claims c").rows());
        ToolResult outer = run(engine, "SELECT r.region AS g, (SELECT count(*) FROM claims c WHERE c.id > 0 AND region = r.region) AS k"
                + " FROM regions r ORDER BY 1");
        assertThat(outer.error()).isEmpty();
        assertThat(outer.rows()).isEqualTo(run(engine, "SELECT r.region AS g, (SELECT count(*) FROM claims c WHERE c.id > 0"
                + " AND r.region = r.region) AS k FROM regions r ORDER BY 1").rows());
        ToolResult grouped = run(engine, "SELECT c.status AS s, count(*) AS n FROM claims c GROUP BY c.id ORDER BY c.id");
        assertThat(grouped.error()).as(String.valueOf(grouped.error())).isEmpty();
        assertThat(grouped.rows()).hasSize(ContractDataset.claims().size());
    }
}
