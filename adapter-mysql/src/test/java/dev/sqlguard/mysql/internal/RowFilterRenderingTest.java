package dev.sqlguard.mysql.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** Row filters and column masks in the rendered text, and the order in which placeholders bind. */
class RowFilterRenderingTest {
    /** The derived table of a statement with some condition: a materialized barrier. */
    private static final String CLAIMS = "(SELECT `id`, `region`, `amount`, `status`, `created`, `ssn` FROM `guard`.`claims`"
            + " WHERE (region = ?) LIMIT 18446744073709551615)";
    /** The derived table of a statement without any condition: mergeable. */
    private static final String CLAIMS_MERGED = "(SELECT `id`, `region`, `amount`, `status`, `created`, `ssn` FROM `guard`.`claims`"
            + " WHERE (region = ?))";
    private static final String REGIONS_MERGED = "(SELECT `region`, (upper(manager)) AS `manager` FROM `guard`.`regions` WHERE (region = ?))";

    private static GuardrailPolicy policy() {
        return TestSchemas.policy().withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant", "regions", "region = :tenant"), Map.of("regions.manager", "upper(manager)")));
    }

    private final MySqlValidator validator = new MySqlValidator("src", TestSchemas.snapshot(), policy(), Optional.empty());

    private QueryPlan plan(String sql, Object... params) {
        return TestSchemas.authorized(validator, policy(), sql, params);
    }

    private static Bindings slots(String... slots) {
        Bindings.Builder b = Bindings.builder();
        for (String s : slots) {
            if (s == null) {
                b.parameter();
            } else {
                b.attribute(s);
            }
        }
        return b.build();
    }

    @Test
    void aFilteredTableIsTheDerivedTableOfTheCallersRowsUnderItsAlias() {
        QueryPlan p = plan("SELECT id FROM claims WHERE id > ?", 3);
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`id` AS `id` FROM " + CLAIMS + " AS `t1` WHERE (`t1`.`id` > ?) LIMIT 101");
        assertThat(p.bindings()).isEqualTo(slots("tenant", null));
        assertThat(p.withAttributes(Map.of("tenant", "north", "other", "x")).values()).containsExactly("north", 3L);
        assertThat(p.withAttributes(Map.of("tenant", "north")).attributes()).isEqualTo(Map.of("tenant", "north"));
        // the facts stay those of the query as written: the filter's column is no use
        assertThat(p.tables()).containsExactly(TableRef.of("guard", "claims"));
        assertThat(p.columns()).extracting(c -> c.column()).containsExactly("id");
    }

    @Test
    void parametersBeforeAndAfterAFilteredTableKeepTheirOrderAmongThemselves() {
        QueryPlan p = plan("SELECT ? AS p, u.id FROM users u WHERE u.id = ? AND EXISTS (SELECT 1 FROM claims c WHERE c.id = u.id"
                + " AND c.amount > ?) AND u.name <> ?", "a", 1, 2, "b");
        assertThat(p.bindings()).isEqualTo(slots(null, null, "tenant", null, null));
        assertThat(p.executableSql()).contains("EXISTS (SELECT 1 AS `1` FROM " + CLAIMS + " AS `t2` WHERE ((`t2`.`id` = `t1`.`id`)");
        assertThat(p.withAttributes(Map.of("tenant", "north")).values()).containsExactly("a", 1L, "north", 2L, "b");
    }

    @Test
    void aTableReferencedTwiceIsFilteredTwice() {
        QueryPlan p = plan("SELECT a.id, b.id AS other FROM claims a JOIN claims b ON b.id = a.id + ? WHERE a.id < ?", 1, 9);
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`id` AS `id`, `t2`.`id` AS `other` FROM " + CLAIMS + " AS `t1` INNER JOIN "
                + CLAIMS + " AS `t2` ON (`t2`.`id` = (`t1`.`id` + ?)) WHERE (`t1`.`id` < ?) LIMIT 101");
        assertThat(p.bindings()).isEqualTo(slots("tenant", "tenant", null, null));
        assertThat(p.withAttributes(Map.of("tenant", "south")).values()).containsExactly("south", "south", 1L, 9L);
    }

    @Test
    void everyPlaceholderOfTheFilterBindsInTextOrder() {
        GuardrailPolicy twice = TestSchemas.policy().withRows(RowPolicy.of(Optional.empty(),
                Map.of("claims", "region = :tenant OR (status = :status AND region = :TENANT)"), Map.of()));
        MySqlValidator v = new MySqlValidator("src", TestSchemas.snapshot(), twice, Optional.empty());
        QueryPlan p = TestSchemas.authorized(v, twice, "SELECT ? AS x, id FROM claims", 5);
        assertThat(p.executableSql()).contains("WHERE (region = ? OR (status = ? AND region = ?))");
        assertThat(p.bindings()).isEqualTo(slots(null, "tenant", "status", "tenant"));
        assertThatThrownBy(() -> p.withAttributes(Map.of("tenant", "north")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MISSING_ATTRIBUTE));
        assertThat(p.withAttributes(Map.of("tenant", "north", "status", "DENIED")).values()).containsExactly(5L, "north", "DENIED", "north");
    }

    @Test
    void aMaskedColumnShowsItsMaskAndAnUngovernedTableIsUntouched() {
        QueryPlan p = plan("SELECT r.region, r.manager, u.name FROM regions r CROSS JOIN users u");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`region` AS `region`, `t1`.`manager` AS `manager`, `t2`.`name` AS `name` FROM "
                + REGIONS_MERGED + " AS `t1` CROSS JOIN `guard`.`users` AS `t2` LIMIT 101");
        QueryPlan users = plan("SELECT name FROM users WHERE id = ?", 1);
        assertThat(users.executableSql()).isEqualTo("SELECT `t1`.`name` AS `name` FROM `guard`.`users` AS `t1` WHERE (`t1`.`id` = ?) LIMIT 101");
        assertThat(users.bindings()).isEqualTo(Bindings.parameters(1));
        assertThat(users.bindings().takesAttributes()).isFalse();
    }

    @Test
    void aTableWithOnlyMasksHasNoWhere() {
        GuardrailPolicy masks = TestSchemas.policy().withRows(RowPolicy.of(Optional.empty(), Map.of(), Map.of("guard.users.name", "left(name, 1)")));
        MySqlValidator v = new MySqlValidator("src", TestSchemas.snapshot(), masks, Optional.empty());
        QueryPlan p = TestSchemas.authorized(v, masks, "SELECT id FROM users");
        assertThat(p.executableSql()).isEqualTo("SELECT `t1`.`id` AS `id` FROM (SELECT `id`, (left(name, 1)) AS `name`, `password`, `api_key`"
                + " FROM `guard`.`users`) AS `t1` LIMIT 101");
        assertThat(p.bindings()).isEqualTo(Bindings.parameters(0));
    }

    @Test
    void qualifiedNamesStarsCtesSetOperationsAndRecursionAllReadTheDerivedTable() {
        assertThat(plan("SELECT guard.claims.id, claims.region FROM guard.claims").executableSql())
                .isEqualTo("SELECT `t1`.`id` AS `id`, `t1`.`region` AS `region` FROM " + CLAIMS_MERGED + " AS `t1` LIMIT 101");
        assertThat(plan("SELECT * FROM regions").executableSql()).isEqualTo("SELECT `t1`.`region` AS `region`, `t1`.`manager` AS `manager` FROM "
                + REGIONS_MERGED + " AS `t1` LIMIT 101");
        for (String sql : List.of(
                "WITH c AS (SELECT id FROM claims) SELECT count(*) AS n FROM c",
                "SELECT id FROM claims UNION ALL SELECT id FROM claims",
                "SELECT (SELECT count(*) FROM claims) AS n FROM regions",
                "SELECT n FROM (SELECT n FROM (SELECT count(*) AS n FROM (SELECT id FROM claims) a) b) c",
                "WITH RECURSIVE r (n) AS (SELECT min(id) FROM claims UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT max(id) FROM claims))"
                        + " SELECT count(*) AS n FROM r")) {
            QueryPlan p = plan(sql);
            String text = p.executableSql();
            assertThat(text).as(sql).doesNotContain("`guard`.`claims` AS");
            assertThat(text.split("` WHERE \\(region = \\?\\)( LIMIT 18446744073709551615)?\\) AS `", -1).length - 1).as(sql).isEqualTo(p.bindings().size());
            assertThat(p.bindings().attributes()).as(sql).containsExactly("tenant");
        }
    }

    @Test
    void aConditionOrSubqueryAnywhereKeepsEveryGovernedTableFromBeingMerged() {
        for (String sql : List.of("SELECT id FROM claims WHERE id > 3",
                "SELECT count(*) AS n FROM claims c JOIN users u ON u.id = c.id",
                "SELECT count(*) AS n FROM claims JOIN regions USING (region)",
                "SELECT count(*) AS n FROM claims NATURAL JOIN regions",
                "SELECT status, count(*) AS n FROM claims GROUP BY status HAVING count(*) > 1",
                "SELECT (SELECT max(id) FROM users WHERE name = 'x') AS m, id FROM claims",
                "SELECT n FROM (SELECT id AS n FROM claims) d, (SELECT id FROM users WHERE id = 1) e",
                "WITH c AS (SELECT id FROM regions r, claims WHERE r.region = 'x') SELECT count(*) AS n FROM c",
                "SELECT (SELECT count(*) FROM claims) AS n", "SELECT id IN (SELECT id FROM claims) AS x FROM users")) {
            String text = plan(sql).executableSql();
            assertThat(text).as(sql).doesNotContainPattern("WHERE \\(region = \\?\\)\\)");
            assertThat(text).as(sql).contains("WHERE (region = ?) LIMIT 18446744073709551615) AS `");
        }
        for (String sql : List.of("SELECT count(*) AS n, sum(amount) AS s FROM claims", "SELECT status, count(*) AS n FROM claims GROUP BY status",
                "SELECT c.id, r.manager FROM claims c CROSS JOIN regions r ORDER BY c.id")) {
            assertThat(plan(sql).executableSql()).as(sql).doesNotContain("18446744073709551615").contains("WHERE (region = ?)) AS `");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "WITH claims AS (SELECT id FROM users) SELECT id FROM claims",
            "WITH CLAIMS AS (SELECT 1 AS id) SELECT id FROM users",
            "WITH `Regions` AS (SELECT region FROM regions) SELECT region FROM `Regions`",
            "WITH RECURSIVE claims (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM claims WHERE n < 3) SELECT n FROM claims",
            "SELECT id FROM users WHERE id IN (WITH claims AS (SELECT 1 AS id) SELECT id FROM claims)",
            "SELECT n FROM (WITH x AS (SELECT 1 AS n), regions AS (SELECT 2 AS n) SELECT n FROM x) d"})
    void aWithQueryNamedLikeAGovernedTableIsRefused(String sql) {
        assertThatThrownBy(() -> plan(sql)).isInstanceOfSatisfying(GuardException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED);
            assertThat(e.getMessage()).startsWith("A WITH query is named like the table ").endsWith(", whose rows are filtered per caller; give it another name.");
        });
    }

    @Test
    void withoutRowPolicyAWithQueryMayTakeATablesName() {
        MySqlValidator plain = TestSchemas.validator();
        assertThat(TestSchemas.authorized(plain, TestSchemas.policy(), "WITH claims AS (SELECT id FROM users) SELECT id FROM claims").bindings())
                .isEqualTo(Bindings.parameters(0));
    }

    @Test
    void catalogRelationsAreRefusedWhileRowsAreFiltered() {
        SchemaSnapshot withCatalog = SchemaSnapshot.caseInsensitive(TestSchemas.SCHEMA, List.of(
                new TableInfo("guard", "claims", Arrays.stream(new String[] {"id", "region"}).map(c -> new ColumnInfo(c, "int")).toList(), OptionalLong.of(1)),
                new TableInfo("information_schema", "TABLES", List.of(new ColumnInfo("TABLE_NAME", "varchar(64)"),
                        new ColumnInfo("TABLE_ROWS", "bigint")), OptionalLong.empty())));
        TableAllowlist tables = TableAllowlist.of(Optional.of("guard"), Map.of("claims", List.of("*"), "information_schema.tables", List.of("*")));
        GuardrailPolicy open = new GuardrailPolicy(tables, java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), Limits.defaults());
        String sql = "SELECT table_rows FROM information_schema.tables";
        assertThat(TestSchemas.authorized(new MySqlValidator("src", withCatalog, open, Optional.empty()), open, sql).executableSql())
                .contains("`information_schema`.`TABLES`");
        GuardrailPolicy filtered = open.withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "region = :tenant"), Map.of()));
        assertThatThrownBy(() -> new MySqlValidator("src", withCatalog, filtered, Optional.empty()).validate(QueryRequest.of("src", sql)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.TABLE_NOT_ALLOWED));
    }

    @Test
    void tableFunctionsStayRefused() {
        assertThatThrownBy(() -> plan("SELECT j.x FROM JSON_TABLE('[1]', '$[*]' COLUMNS (x INT PATH '$')) j"))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isIn(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED,
                        ErrorCode.SYNTAX_ERROR, ErrorCode.CONSTRUCT_NOT_ALLOWED));
    }

    @Test
    void aFilterWithAControlCharacterIsAConfigurationError() {
        GuardrailPolicy bad = TestSchemas.policy().withRows(RowPolicy.of(Optional.empty(), Map.of("claims", "region = '\u0000' OR region = :tenant"), Map.of()));
        assertThatThrownBy(() -> new MySqlValidator("src", TestSchemas.snapshot(), bad, Optional.empty()).validate(QueryRequest.of("src", "SELECT id FROM claims")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
    }

    @Test
    void aRowPolicyWithAnotherDefaultSchemaIsAConfigurationError() {
        GuardrailPolicy other = TestSchemas.policy().withRows(RowPolicy.of(Optional.of("other"), Map.of("claims", "region = :tenant"), Map.of()));
        assertThatThrownBy(() -> new MySqlValidator("src", TestSchemas.snapshot(), other, Optional.empty()))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        GuardrailPolicy same = TestSchemas.policy().withRows(RowPolicy.of(Optional.of("GUARD"), Map.of("guard.claims", "region = :tenant"), Map.of()));
        MySqlValidator v = new MySqlValidator("src", TestSchemas.snapshot(), same, Optional.empty());
        assertThat(TestSchemas.authorized(v, same, "SELECT count(*) AS n FROM claims").executableSql()).contains(CLAIMS_MERGED);
    }

    @Test
    void markersBindCallerParametersInOrderAndAttributesWhereTheyStand() {
        ParameterMarkers m = new ParameterMarkers();
        ParameterMarkers.Bound b = ParameterMarkers.bind("a " + m.marker(1) + " b " + ParameterMarkers.attribute("Tenant") + " c " + m.marker(2));
        assertThat(b.sql()).isEqualTo("a ? b ? c ?");
        assertThat(b.bindings()).isEqualTo(slots(null, "tenant", null));
        assertThat(b.count()).isEqualTo(2);
        assertThatThrownBy(() -> ParameterMarkers.bind(m.marker(2) + ParameterMarkers.attribute("t") + m.marker(1)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONSTRUCT_NOT_ALLOWED));
    }
}
