package dev.sqlguard.jdbc.ansi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

class VisibleTablesTest {
    /** {@code s.claims} hides {@code ssn} and {@code region}; {@code s.regions} and {@code s.users} hide nothing. */
    private static final SchemaSnapshot SCHEMA = SchemaSnapshot.of("s", List.of(
            new TableInfo("s", "claims", List.of(new ColumnInfo("id", "integer"), new ColumnInfo("region", "text"),
                    new ColumnInfo("ssn", "text"), new ColumnInfo("amount", "integer")), OptionalLong.empty()),
            new TableInfo("s", "regions", List.of(new ColumnInfo("region", "text"), new ColumnInfo("manager", "text")), OptionalLong.empty()),
            new TableInfo("s", "Mixed", List.of(new ColumnInfo("id", "integer"), new ColumnInfo("secret", "text")), OptionalLong.empty())));
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Optional.of("s"), Map.of(
            "claims", List.of("id", "amount"), "regions", List.of("region", "manager"), "Mixed", List.of("id"))),
            Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(Set.of("count", "upper"));
    private static final VisibleTables VISIBLE = new VisibleTables(new MinimalDialect(), SCHEMA, POLICY);
    private static final String CLAIMS = "(SELECT \"id\", \"amount\" FROM ";

    @Test
    void aTableThatHidesAColumnBecomesTheDerivedTableOfItsVisibleColumnsUnderTheSameName() {
        assertThat(VISIBLE.hidesAny()).isTrue();
        assertThat(VISIBLE.splice("SELECT count(*) AS n FROM regions r JOIN claims c ON c.id > 0 AND region <> 'zz'"))
                .isEqualTo("SELECT count(*) AS n FROM regions r JOIN " + CLAIMS + "claims) c ON c.id > 0 AND region <> 'zz'");
        assertThat(VISIBLE.splice("SELECT id FROM claims AS c")).isEqualTo("SELECT id FROM " + CLAIMS + "claims) AS c");
        assertThat(VISIBLE.splice("SELECT claims.id FROM claims")).isEqualTo("SELECT claims.id FROM " + CLAIMS + "claims) claims");
        assertThat(VISIBLE.splice("SELECT id FROM s.claims")).isEqualTo("SELECT id FROM " + CLAIMS + "s.claims) claims");
        assertThat(VISIBLE.splice("SELECT id FROM S.CLAIMS x")).isEqualTo("SELECT id FROM " + CLAIMS + "S.CLAIMS) x");
        assertThat(VISIBLE.splice("SELECT id FROM \"claims\" \"C\"")).isEqualTo("SELECT id FROM " + CLAIMS + "\"claims\") \"C\"");
        assertThat(VISIBLE.splice("SELECT id FROM \"s\".\"Mixed\"")).isEqualTo("SELECT id FROM (SELECT \"id\" FROM \"s\".\"Mixed\") \"Mixed\"");
    }

    @Test
    void aTableWithoutHiddenColumnsAndATextWithoutSuchTablesAreLeftAlone() {
        String sql = "SELECT region FROM regions r WHERE r.manager <> 'x'";
        assertThat(VISIBLE.splice(sql)).isSameAs(sql);
        GuardrailPolicy all = new GuardrailPolicy(TableAllowlist.of(Optional.of("s"), Map.of(
                "claims", List.of("id", "region", "ssn", "amount"), "regions", List.of("region", "manager"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults());
        VisibleTables none = new VisibleTables(new MinimalDialect(), SCHEMA, all);
        assertThat(none.hidesAny()).isFalse();
        String claims = "SELECT id FROM claims c";
        assertThat(none.splice(claims)).isSameAs(claims);
    }

    @Test
    void aCommonTableExpressionNamedLikeATableIsNoTableWhereItIsInScope() {
        assertThat(VISIBLE.splice("WITH claims AS (SELECT id FROM claims) SELECT id FROM claims"))
                .isEqualTo("WITH claims AS (SELECT id FROM " + CLAIMS + "claims) claims) SELECT id FROM claims");
        // a schema-qualified name is the table, CTE or not
        assertThat(VISIBLE.splice("WITH claims AS (SELECT 1 AS id) SELECT c.id FROM claims, s.claims c"))
                .isEqualTo("WITH claims AS (SELECT 1 AS id) SELECT c.id FROM claims, " + CLAIMS + "s.claims) c");
        // a recursive CTE's own name is the CTE in its body
        assertThat(VISIBLE.splice("WITH RECURSIVE claims(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM claims WHERE id < 3)"
                + " SELECT id FROM claims")).isEqualTo("WITH RECURSIVE claims(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM claims"
                + " WHERE id < 3) SELECT id FROM claims");
        // a CTE of an enclosing query is in scope in a subquery; one of a subquery is not outside it
        assertThat(VISIBLE.splice("WITH claims AS (SELECT 1 AS id) SELECT (SELECT count(*) FROM claims) AS n FROM"
                + " (WITH x AS (SELECT 2 AS id) SELECT id FROM x) y"))
                .isEqualTo("WITH claims AS (SELECT 1 AS id) SELECT (SELECT count(*) FROM claims) AS n FROM"
                        + " (WITH x AS (SELECT 2 AS id) SELECT id FROM x) y");
        assertThat(VISIBLE.splice("SELECT id FROM (WITH claims AS (SELECT 1 AS id) SELECT id FROM claims) a JOIN claims b ON a.id = b.id"))
                .isEqualTo("SELECT id FROM (WITH claims AS (SELECT 1 AS id) SELECT id FROM claims) a JOIN " + CLAIMS + "claims) b ON a.id = b.id");
    }

    @Test
    void referencesInSubqueriesJoinsAndSetOperationsAreEachReplaced() {
        assertThat(VISIBLE.splice("SELECT count(*) AS n FROM regions r WHERE EXISTS (SELECT 1 FROM claims c WHERE c.id > 0 AND region <> 'zz')"))
                .isEqualTo("SELECT count(*) AS n FROM regions r WHERE EXISTS (SELECT 1 FROM " + CLAIMS + "claims) c WHERE c.id > 0 AND region <> 'zz')");
        assertThat(VISIBLE.splice("SELECT r.region AS g FROM regions r WHERE r.region IN (SELECT region FROM claims c WHERE c.id < 3)"))
                .isEqualTo("SELECT r.region AS g FROM regions r WHERE r.region IN (SELECT region FROM " + CLAIMS + "claims) c WHERE c.id < 3)");
        assertThat(VISIBLE.splice("SELECT a.id FROM claims a NATURAL JOIN claims b LEFT JOIN (SELECT id FROM claims) d USING (id)"))
                .isEqualTo("SELECT a.id FROM " + CLAIMS + "claims) a NATURAL JOIN " + CLAIMS + "claims) b LEFT JOIN (SELECT id FROM "
                        + CLAIMS + "claims) claims) d USING (id)");
        assertThat(VISIBLE.splice("SELECT id FROM claims UNION SELECT id FROM claims x ORDER BY 1"))
                .isEqualTo("SELECT id FROM " + CLAIMS + "claims) claims UNION SELECT id FROM " + CLAIMS + "claims) x ORDER BY 1");
        assertThat(VISIBLE.splice("SELECT (SELECT max(amount) FROM claims) AS m, upper(manager) AS u FROM regions"))
                .isEqualTo("SELECT (SELECT max(amount) FROM " + CLAIMS + "claims) claims) AS m, upper(manager) AS u FROM regions");
    }

    @Test
    void positionsHoldAcrossTabsAndLineBreaks() {
        assertThat(VISIBLE.splice("SELECT\tid\r\nFROM\tregions r,\r\n\tclaims\tc\nWHERE c.id > 0\r\n"))
                .isEqualTo("SELECT\tid\r\nFROM\tregions r,\r\n\t" + CLAIMS + "claims)\tc\nWHERE c.id > 0\r\n");
        assertThat(VISIBLE.splice("SELECT id\rFROM claims\r\n  AS  c"))
                .isEqualTo("SELECT id\rFROM " + CLAIMS + "claims)\r\n  AS  c");
    }

    @Test
    void keywordNamedColumnsTheKitQuotesBeforeParsingDoNotMoveThePositions() {
        SchemaSnapshot schema = SchemaSnapshot.of("s", List.of(new TableInfo("s", "claims", List.of(new ColumnInfo("id", "integer"),
                new ColumnInfo("year", "integer"), new ColumnInfo("ssn", "text")), OptionalLong.empty())));
        GuardrailPolicy policy = new GuardrailPolicy(TableAllowlist.of(Optional.of("s"), Map.of("claims", List.of("id", "year"))),
                Set.of(), Set.of(), Set.of(), Limits.defaults());
        VisibleTables visible = new VisibleTables(new MinimalDialect(), schema, policy);
        assertThat(visible.splice("SELECT year, id FROM claims c WHERE year > 1"))
                .isEqualTo("SELECT year, id FROM (SELECT \"id\", \"year\" FROM claims) c WHERE year > 1");
    }

    @Test
    void whereNothingLinesUpTheTextIsLeftAsWritten() {
        // a column qualified by its schema cannot name a derived table
        String qualified = "SELECT s.claims.id FROM s.claims";
        assertThat(VISIBLE.splice(qualified)).isSameAs(qualified);
        String star = "SELECT s.claims.* FROM s.claims";
        assertThat(VISIBLE.splice(star)).isSameAs(star);
        String unparsed = "SELECT FROM WHERE claims";
        assertThat(VISIBLE.splice(unparsed)).isSameAs(unparsed);
        String unknown = "SELECT id FROM nowhere";
        assertThat(VISIBLE.splice(unknown)).isSameAs(unknown);
    }
}
