package dev.sqlguard.duckdb.ingest.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TypeRulesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '>', value = {
        "BIGINT > BIGINT", "INTEGER > BIGINT", "TINYINT > SMALLINT", "UINTEGER > BIGINT", "UBIGINT > HUGEINT",
        "BIGINT > DOUBLE", "INTEGER > DECIMAL(18,2)", "SMALLINT > FLOAT", "FLOAT > DOUBLE",
        "DECIMAL(10,2) > DECIMAL(18,2)", "DECIMAL(10,2) > DECIMAL(12,4)", "DECIMAL(10,2) > DOUBLE",
        "DATE > TIMESTAMP", "BIGINT > VARCHAR", "DATE > VARCHAR", "boolean > varchar"})
    void widening(String from, String to) {
        assertThat(TypeRules.widens(from, to)).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '>', value = {
        "DOUBLE > BIGINT", "BIGINT > INTEGER", "VARCHAR > BIGINT", "VARCHAR > DATE", "TIMESTAMP > DATE",
        "UINTEGER > INTEGER", "INTEGER > UINTEGER", "BIGINT > DECIMAL(18,2)", "DECIMAL(18,2) > DECIMAL(18,4)",
        "DECIMAL(10,4) > DECIMAL(10,2)", "DOUBLE > DECIMAL(18,2)", "BOOLEAN > BIGINT", "INTEGER > FLOAT",
        "BIGINT[] > VARCHAR", "STRUCT(a INTEGER) > VARCHAR"})
    void notWidening(String from, String to) {
        assertThat(TypeRules.widens(from, to)).isFalse();
    }
}
