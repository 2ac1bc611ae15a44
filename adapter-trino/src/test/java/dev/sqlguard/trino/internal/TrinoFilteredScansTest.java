package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.trino.TestCluster;

/**
 * The cluster's confirmation of a filtered text (issue 31), on plans the real test cluster makes: with the
 * attribute explained as {@link FilteredScans#MARKER} every scan of the filtered table shows the marker in
 * its filter, whatever the rest of the query does to the plan, and a scan of the same table without the
 * filter (a renderer that missed one reference) is refused. The same texts with the attribute as a plain
 * constant plan as an empty {@code Values}, which is why the marker exists.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(300)
class TrinoFilteredScansTest {
    private static final String FILTERED = "(SELECT id, region, amount, status FROM claims WHERE (region = " + FilteredScans.MARKER
            + ")) ";
    private String schema;
    private RowPolicy rows;
    private Set<TableRef> known;

    @BeforeAll
    void start() throws Exception {
        TestCluster.require();
        schema = TestCluster.createSchema();
        rows = RowPolicy.of(Optional.empty(), Map.of(schema + ".claims", "region = :tenant"), Map.of());
        known = Set.of(TableRef.of(schema, "claims"), TableRef.of(schema, "regions"), TableRef.of(schema, "users"));
    }

    @AfterAll
    void stop() {
        if (schema != null) {
            TestCluster.dropSchema(schema);
        }
    }

    private String plan(String sql) throws SQLException {
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, schema); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN (TYPE LOGICAL, FORMAT JSON) " + sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        }
    }

    private void require(String sql) throws SQLException {
        FilteredScans.require(plan(sql), "memory", known, rows);
    }

    @Test
    void everyScanOfTheFilteredTableCarriesTheMarker() {
        for (String sql : new String[] {
                "SELECT count(*) AS n FROM " + FILTERED + "claims",
                "SELECT count(*) AS n FROM " + FILTERED + "a JOIN " + FILTERED + "b ON a.id = b.id + 4",
                "SELECT count(*) AS n FROM " + FILTERED + "claims WHERE claims.region = 'south'",
                "SELECT count(*) AS n FROM " + FILTERED + "claims WHERE claims.id > " + FilteredScans.OPAQUE_NULL,
                "SELECT x.id FROM (SELECT id FROM " + FILTERED + "c UNION SELECT id FROM " + FILTERED + "d WHERE d.region <> 'north') x",
                "SELECT r.region, (SELECT count(*) FROM " + FILTERED + "c WHERE c.region = r.region) AS n FROM regions r",
                "SELECT status, sum(amount) OVER (PARTITION BY status) AS s FROM " + FILTERED + "claims"}) {
            assertThatCode(() -> require(sql)).as(sql).doesNotThrowAnyException();
        }
    }

    @Test
    void aScanWithoutTheFilterIsRefused() {
        for (String sql : new String[] {
                "SELECT count(*) AS n FROM claims",
                "SELECT count(*) AS n FROM " + FILTERED + "a JOIN claims b ON a.id = b.id",
                "SELECT id FROM " + FILTERED + "a UNION ALL SELECT id FROM claims",
                "SELECT r.region, (SELECT count(*) FROM claims c WHERE c.region = r.region) AS n FROM regions r",
                "SELECT count(*) AS n FROM claims WHERE region = " + FilteredScans.OPAQUE_NULL,
                "SELECT count(*) AS n FROM claims WHERE region <> 'CAST(uuid() AS varchar)'",
                "SELECT count(*) AS n FROM claims WHERE strpos(region || status, 'CAST(uuid() AS varchar)') = 0"}) {
            assertThatThrownBy(() -> require(sql)).as(sql).isInstanceOfSatisfying(GuardException.class, e -> {
                assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
                assertThat(e.safeMessage()).contains("claims").doesNotContain(schema);
            });
        }
    }

    @Test
    void aConstantInTheAttributesPlaceLeavesNoScanToConfirm() throws SQLException {
        String folded = plan("SELECT count(*) AS n FROM (SELECT id FROM claims WHERE region = NULL) a JOIN claims b ON a.id = b.id");
        assertThat(folded).doesNotContain("memory:" + schema + ".claims");
        assertThat(plan("SELECT count(*) AS n FROM " + FILTERED + "a JOIN claims b ON a.id = b.id"))
                .contains("memory:" + schema + ".claims");
    }
}
