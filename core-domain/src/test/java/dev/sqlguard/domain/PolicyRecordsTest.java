package dev.sqlguard.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyRecordsTest {
    @Test
    void limitsHaveTheDocumentedDefaults() {
        Limits l = Limits.defaults();
        assertThat(l.maxRows()).isEqualTo(1000);
        assertThat(l.maxCellChars()).isEqualTo(1000);
        assertThat(l.maxBytes()).isEqualTo(1024 * 1024);
        assertThat(l.timeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(l.memoryBytes()).isEqualTo(256_000_000L);
        assertThat(l.threads()).isEqualTo(1);
        assertThat(l.maxSqlLength()).isEqualTo(100 * 1024);
    }

    @Test
    void aCatalogListingIsNotRedactedByItsLabelAndCarriesNoValues() {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withRedact(Set.of("name"));
        assertThat(policy.mustRedact(OutputColumn.catalogListing("name"))).isFalse();
        assertThat(policy.mustRedact(OutputColumn.traced("name", Set.of()))).isTrue();
        assertThat(policy.mustRedact(OutputColumn.catalogListing("password"))).isFalse();
        assertThat(policy.outputsToMask(List.of(OutputColumn.catalogListing("name"), OutputColumn.traced("name", Set.of()))))
                .containsExactly(1);
        // a listing derives from no table column, and is always traced
        assertThatThrownBy(() -> new OutputColumn("name", Set.of(new ColumnRef(TableRef.of("users"), "name")), true, true))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OutputColumn("name", Set.of(), false, true)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void limitsRefuseNonsense() {
        assertThatThrownBy(() -> Limits.defaults().withMaxRows(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxRows");
        assertThatThrownBy(() -> Limits.defaults().withTimeout(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Limits.defaults().withThreads(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Limits.defaults().withMaxBytes(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"password", "PassWord", "user_password", "passwd", "db_secret", "apiKey", "API_KEY", "api-key",
            "private_key", "refresh_token", "credentials", "ssn", "claimant_ssn", "credit_card_number", "pin", "salt",
            // unaliased outputs labelled with their own text: a word ends at a bracket, a comma or an operator too
            "rank() OVER (ORDER BY ssn)", "max(pin)", "concat(name,ssn)", "ssn+0", "\"hash\""})
    void builtInPatternsCatchSensitiveNames(String name) {
        assertThat(SensitiveNames.isSensitive(name, Set.of())).as(name).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"region", "amount", "status", "shipping", "spinner", "name", "created", "lesson", "id",
            "rank() OVER (ORDER BY id)", "max(spinner)", "ssn2"})
    void ordinaryNamesAreNotSensitive(String name) {
        assertThat(SensitiveNames.isSensitive(name, Set.of())).as(name).isFalse();
    }

    @Test
    void verdictsStayRightWhenNamesRepeatAndWhenTheirCacheFills() {
        for (int round = 0; round < 2; round++) { // the second round is answered from the cache
            assertThat(SensitiveNames.isSensitive("user_password", Set.of())).isTrue();
            assertThat(SensitiveNames.isSensitive("region", Set.of())).isFalse();
            assertThat(SensitiveNames.isSensitive("region", Set.of("region"))).as("a policy's own name, cached or not").isTrue();
        }
        for (int i = 0; i < 10_000; i++) { // more names than the cache keeps
            assertThat(SensitiveNames.isSensitive((i % 2 == 0 ? "api_key_" : "col_") + i, Set.of())).isEqualTo(i % 2 == 0);
        }
        assertThat(SensitiveNames.isSensitive("user_password", Set.of())).isTrue();
        assertThat(SensitiveNames.isSensitive("region", Set.of())).isFalse();
    }

    @Test
    void allowlistResolvesDefaultSchemaAndCase() {
        TableAllowlist allow = TableAllowlist.of(Optional.of("crm"), Map.of("Claims", List.of("ID", "region"), "crm.users", List.of("*")));
        assertThat(allow.allowsColumn(TableRef.of("claims"), "id")).isTrue();
        assertThat(allow.allowsColumn(TableRef.of("CRM", "claims"), "Region")).isTrue();
        assertThat(allow.allowsColumn(TableRef.of("claims"), "ssn")).isFalse();
        assertThat(allow.allowsColumn(TableRef.of("users"), "anything")).isTrue();
        assertThat(allow.allowsTable(TableRef.of("other", "claims"))).isFalse();
        assertThat(allow.allowsTable(TableRef.of("nope"))).isFalse();
        assertThat(TableAllowlist.unrestricted().allowsTable(TableRef.of("x"))).isTrue();
    }

    @Test
    void allowlistRefusesBadInput() {
        assertThatThrownBy(() -> TableAllowlist.of(Map.of("t", List.of()))).hasMessageContaining("allows no column");
        assertThatThrownBy(() -> TableAllowlist.of(Map.of("a.b.c", List.of("x")))).hasMessageContaining("more than one dot");
        assertThatThrownBy(() -> TableAllowlist.of(Map.of())).hasMessageContaining("at least one table");
        assertThatThrownBy(() -> TableAllowlist.of(Map.of(" ", List.of("x")))).hasMessageContaining("blank");
    }

    @Test
    void requestsRefuseUnbindableParameters() {
        assertThatThrownBy(() -> QueryRequest.of("s", "SELECT ?", new Object()))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED_PARAMETER));
        assertThatThrownBy(() -> QueryRequest.of("s", "SELECT ?", Double.NaN)).isInstanceOf(GuardException.class);
        assertThat(QueryRequest.of("s", "SELECT ?", 5).params()).containsExactly(5L);
        assertThat(QueryRequest.of("s", "SELECT ?", (Object) null).params()).containsExactly((Object) null);
    }

    @Test
    void errorCodesAreUniqueAndStable() {
        assertThat(Set.of(ErrorCode.values()).stream().map(ErrorCode::number).distinct().count()).isEqualTo(ErrorCode.values().length);
        assertThat(ErrorCode.EXCEEDED_TIME_LIMIT.number()).isEqualTo(202);
        assertThat(ErrorCode.STATEMENT_NOT_ALLOWED.type()).isEqualTo(ErrorType.POLICY);
        assertThat(ErrorCode.INTERNAL_ERROR.retryable()).isFalse();
        for (ErrorCode code : ErrorCode.values()) {
            assertThat(SafeText.clean(code.defaultMessage(), code)).isEqualTo(code.defaultMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"java.sql.SQLException: boom", "at dev.sqlguard.X.y(X.java:12)", "file /home/me/db.duckdb",
            "jdbc:mysql://127.0.0.1:3306/crm", "password=hunter2", "Caused by: x", "line1\nline2", "C:\\data\\x"})
    void unsafeMessagesFallBackToTheDefault(String message) {
        assertThat(SafeText.clean(message, ErrorCode.QUERY_FAILED)).isEqualTo(ErrorCode.QUERY_FAILED.defaultMessage());
    }
}
