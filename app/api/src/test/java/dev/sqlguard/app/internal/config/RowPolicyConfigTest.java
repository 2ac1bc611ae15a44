package dev.sqlguard.app.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableRef;

/** {@code policy.rows} and {@code policy.masks}: read into the source's {@link RowPolicy}, errors naming the line. */
class RowPolicyConfigTest {
    private static RowPolicy rowsOf(String yaml) {
        return ConfigReaderTest.read(yaml).sources().get("claims").policy().rows();
    }

    @Test
    void readsRowFiltersAndMasksAsWritten() {
        RowPolicy rows = rowsOf("""
                sources:
                  claims:
                    engine: duckdb
                    database: data/claims.duckdb
                    policy:
                      tables: {claims: "*", users: [id, org_id, ssn]}
                      rows:
                        claims: "tenant_id = :tenant"
                        users:  "org_id = :tenant AND deleted_at IS NULL AND '${x}' <> 'y'"
                      masks:
                        users.ssn: "'***-**-' || right(ssn, 4)"
                """);

        assertThat(rows.filterOf(TableRef.of("claims")).orElseThrow().predicate()).isEqualTo("tenant_id = :tenant");
        // the operator's SQL is taken as written: ${...} is not a variable here
        assertThat(rows.filterOf(TableRef.of("users")).orElseThrow().predicate())
                .isEqualTo("org_id = :tenant AND deleted_at IS NULL AND '${x}' <> 'y'");
        assertThat(rows.masksOf(TableRef.of("users"))).containsOnlyKeys("ssn");
        assertThat(rows.masksOf(TableRef.of("users")).get("ssn").expression()).isEqualTo("'***-**-' || right(ssn, 4)");
        assertThat(rows.attributes()).containsExactly("tenant");
        assertThat(rows.governs(TableRef.of("claims"))).isTrue();
    }

    @Test
    void theDefaultSchemaAppliesToRowsAndMasks() {
        RowPolicy rows = rowsOf("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      defaultSchema: main
                      tables: {claims: "*"}
                      rows: {main.claims: "region = :tenant"}
                      masks: {claims.manager: "upper(manager)"}
                """);

        assertThat(rows.filterOf(TableRef.of("claims"))).isPresent();
        assertThat(rows.filterOf(TableRef.of("main", "claims"))).isPresent();
        assertThat(rows.isMasked(TableRef.of("main", "claims"), "manager")).isTrue();
    }

    @Test
    void withoutRowsOrMasksThePolicyHasNone() {
        assertThat(rowsOf("""
                sources:
                  claims:
                    engine: duckdb
                    policy: {tables: {claims: "*"}}
                """).isEmpty()).isTrue();
    }

    @Test
    void aBadFilterOrMaskNamesItsLineAndKey() {
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      rows:
                        claims: "region = :tenant; DROP TABLE claims"
                """, "sqlguard.yaml, line 6, sources.claims.policy.rows.claims: is invalid: row filter of claims: a row filter is one predicate; it holds no ';'.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      rows:
                        claims: "region = ?"
                """, "sqlguard.yaml, line 6, sources.claims.policy.rows.claims: is invalid: row filter of claims: a row filter takes attributes as :name, not ? placeholders.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      rows:
                        claims: "region IN (SELECT region FROM regions)"
                """, "sqlguard.yaml, line 6, sources.claims.policy.rows.claims: is invalid: row filter of claims: a row filter reads only its table's own columns; it holds no subquery.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      masks:
                        ssn: "'x'"
                """, "sqlguard.yaml, line 6, sources.claims.policy.masks.ssn: is invalid: masked column 'ssn' must be table.column or schema.table.column.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      masks:
                        users.ssn: "upper(ssn) || :tenant"
                """, "sqlguard.yaml, line 6, sources.claims.policy.masks.users.ssn: is invalid: mask of users.ssn: a column mask takes no :attribute placeholders.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      masks:
                        users.ssn:
                """, "sqlguard.yaml, line 6, sources.claims.policy.masks.users.ssn: must be a SQL expression (a single value), not empty; quote it (\"NULL\") for SQL NULL.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      rows: ["region = :tenant"]
                """, "sqlguard.yaml, line 5, sources.claims.policy.rows: must be a mapping of keys, not a list.");
    }

    @Test
    void aFilterOrMaskOutsideTheAllowlistIsATypoNotASilentlyUnfilteredTable() {
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      tables: {claims: [id, region]}
                      rows:
                        claim: "region = :tenant"
                """, "sqlguard.yaml, line 7, sources.claims.policy.rows.claim: names a table that policy.tables does not list.");
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      tables: {claims: [id, region]}
                      masks:
                        claims.ssn: "'***'"
                """, "sqlguard.yaml, line 7, sources.claims.policy.masks.claims.ssn: names a column that policy.tables does not allow.");
    }

    @Test
    void twoKeysForOneTableAreRefused() {
        assertError("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      defaultSchema: main
                      tables: {claims: "*"}
                      rows:
                        claims: "region = :tenant"
                        main.claims: "region = :tenant"
                """, "sqlguard.yaml, line 8, sources.claims.policy.rows: is invalid: table main.claims has two row filters.");
    }

    private static void assertError(String yaml, String message) {
        assertThatThrownBy(() -> ConfigReaderTest.read(yaml)).isInstanceOf(ConfigException.class).hasMessage(message);
    }
}
