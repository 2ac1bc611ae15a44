package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.fake.FakeGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ToolError;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

/**
 * The embedding API's caller attributes: a request or a {@link GuardedCaller} carries them, a query on
 * a filtered table without them fails closed, and the audit names those that applied. The fake engine
 * renders a filtered table as far as the host sees it (bindings that take the filter's attribute).
 */
class CallerAttributesTest {
    private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

    private SqlGuard guard() {
        return FakeGuard.tenants().auditSink(events::add).build();
    }

    @Test
    void aQueryOnAFilteredTableWithoutTheAttributeIsRefused() {
        try (SqlGuard guard = guard()) {
            ToolResult result = guard.query("claims", "SELECT n FROM claims");

            assertThat(result.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(result.error().map(ToolError::code)).contains(ErrorCode.MISSING_ATTRIBUTE);
            assertThat(result.rows()).isEmpty();
            assertThat(result.error().orElseThrow().message()).contains("'tenant'");

            ToolResult checked = guard.check("claims", "SELECT n FROM claims");
            assertThat(checked.error().map(ToolError::code)).as("check fails closed too").contains(ErrorCode.MISSING_ATTRIBUTE);

            // an attribute the filter does not take does not help
            ToolResult other = guard.withAttributes(Map.of("org", "north")).query("claims", "SELECT n FROM claims");
            assertThat(other.error().map(ToolError::code)).contains(ErrorCode.MISSING_ATTRIBUTE);
        }
        assertThat(events).extracting(e -> e.code().orElseThrow()).containsOnly(ErrorCode.MISSING_ATTRIBUTE);
        assertThat(events).allSatisfy(e -> assertThat(e.attributes()).isEmpty());
    }

    @Test
    void aCallerHandleCarriesItsAttributesOnEveryCallAndTheAuditNamesThem() {
        try (SqlGuard guard = guard()) {
            GuardedCaller north = guard.withAttributes(Map.of("Tenant", "north"));
            assertThat(north.attributes()).containsExactly(Map.entry("tenant", "north"));

            ToolResult ok = north.query("claims", "SELECT n FROM claims");
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);
            assertThat(ok.sql()).hasValueSatisfying(sql -> assertThat(sql).contains("filtered: claims"));

            // the engine binds the caller's parameters, then the filter's attribute, never in the text
            ToolResult values = north.query("claims", "SELECT params ? FROM claims", List.of(5));
            assertThat(values.rows()).containsExactly(List.of(5L, "north"));

            ToolResult checked = north.check("claims", "SELECT n FROM claims");
            assertThat(checked.status()).isEqualTo(ToolStatus.OK);

            ToolResult unfiltered = north.query("claims", "SELECT n FROM t");
            assertThat(unfiltered.status()).isEqualTo(ToolStatus.OK);
        }
        assertThat(events).extracting(AuditEvent::attributes).containsExactly(
                Map.of("tenant", "north"), Map.of("tenant", "north"), Map.of("tenant", "north"),
                Map.of()); // the last read no filtered table: no attribute applied
    }

    @Test
    void aRequestCarriesItsOwnAttributes() {
        try (SqlGuard guard = guard()) {
            QueryRequest request = new QueryRequest("claims", "SELECT params FROM claims", List.of(), "req-1", Map.of("tenant", "south"));

            ToolResult result = guard.query(request);
            assertThat(result.status()).isEqualTo(ToolStatus.OK);
            assertThat(result.rows()).containsExactly(List.of("south"));
            assertThat(guard.check(request).status()).isEqualTo(ToolStatus.OK);
        }
        assertThat(events).extracting(AuditEvent::requestId).containsExactly("req-1", "req-1");
        assertThat(events).extracting(AuditEvent::attributes).containsOnly(Map.of("tenant", "south"));
    }

    @Test
    void aHandleRefusesARequestThatNamesAnotherCaller() {
        try (SqlGuard guard = guard()) {
            GuardedCaller north = guard.withAttributes(Map.of("tenant", "north"));

            ToolResult other = north.query(new QueryRequest("claims", "SELECT n FROM claims", List.of(), "r", Map.of("tenant", "south")));
            assertThat(other.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(other.error().map(ToolError::code)).contains(ErrorCode.INVALID_ARGUMENT);

            ToolResult same = north.query(new QueryRequest("claims", "SELECT params FROM claims", List.of(), "s", Map.of("tenant", "north")));
            assertThat(same.rows()).containsExactly(List.of("north"));
            ToolResult bare = north.check(QueryRequest.of("claims", "SELECT params FROM claims"));
            assertThat(bare.status()).isEqualTo(ToolStatus.OK);
            assertThat(north.query((QueryRequest) null).status()).isEqualTo(ToolStatus.REJECTED);
        }
    }

    @Test
    void attributesAreCheckedWhenTheHandleIsMade() {
        try (SqlGuard guard = guard()) {
            assertThatThrownBy(() -> guard.withAttributes(Map.of("tenant", ""))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("attribute 'tenant' has an empty value");
            assertThatThrownBy(() -> guard.withAttributes(Map.of("ten-ant", "x"))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("is invalid");
            assertThatThrownBy(() -> guard.withAttributes(Map.of("tenant", "a\nb"))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("attribute 'tenant' holds a control character");
            assertThatThrownBy(() -> guard.withAttributes(Map.of("tenant", "x".repeat(4097)))).isInstanceOf(IllegalArgumentException.class);
            Map<String, String> twice = new LinkedHashMap<>();
            twice.put("tenant", "a");
            twice.put("TENANT", "b");
            assertThatThrownBy(() -> guard.withAttributes(twice)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("attribute 'tenant' is given twice");
            assertThat(guard.withAttributes(Map.of("tenant", "north")).toString()).doesNotContain("north");
        }
    }

    @Test
    void aCallerSeesNoRowCountOfAFilteredTable() {
        try (SqlGuard guard = SqlGuard.builder().source("claims", "fake", Map.of("rows", "2"), FakeGuard.tenantPolicy()
                .withTables(dev.sqlguard.domain.TableAllowlist.of(Map.of("claims", List.of("id", "region"), "t", List.of("n")))))
                .auditSink(events::add).build()) {
            assertThat(guard.describe("claims")).extracting(t -> t.rowCount().isPresent()).containsExactly(true, true);
            List<dev.sqlguard.ports.TableDescription> seen = guard.withAttributes(Map.of("tenant", "north")).describe("claims");
            assertThat(seen).extracting(t -> t.table().table()).containsExactly("claims", "t");
            assertThat(seen.get(0).rowCount()).as("claims is filtered").isEmpty();
            assertThat(seen.get(1).rowCount()).hasValue(2);
        }
    }

    @Test
    void aCallersGuardedPathCarriesItsAttributes() {
        try (SqlGuard guard = guard()) {
            assertThat(guard.guardedPath(List.of("claims")).attributes()).isEmpty();
            GuardedPath path = guard.withAttributes(Map.of("tenant", "north")).guardedPath(List.of("claims"));
            assertThat(path.attributes()).containsExactly(Map.entry("tenant", "north"));
        }
    }

    @Test
    void theAuditFileRecordsTheAppliedAttributes(@TempDir Path dir) throws Exception {
        Path audit = dir.resolve("audit.jsonl");
        try (SqlGuard guard = FakeGuard.tenants().auditFile(audit).build()) {
            guard.withAttributes(Map.of("tenant", "north")).query("claims", "SELECT n FROM claims");
            guard.query("claims", "SELECT n FROM claims");
        }
        List<String> lines = Files.readAllLines(audit).stream().filter(l -> l.contains("\"type\":\"audit\"")).toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("\"verdict\":\"OK\"").contains("\"attributes\":{\"tenant\":\"north\"}");
        assertThat(lines.get(1)).contains("\"code\":\"MISSING_ATTRIBUTE\"").doesNotContain("attributes");
    }

    @Test
    void aFilterOrMaskTheEngineRefusesAtStartIsAConfigurationErrorAtItsLine(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    mode: badfilter
                    policy:
                      tables: {claims: "*", regions: "*"}
                      rows:
                        regions: "region = :tenant"
                        claims: "region = :tenant"
                """);
        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessage(config + ", line 9, sources.claims.policy.rows.claims: The row filter of table claims does not bind"
                            + " on this database.");
        }
        Files.writeString(config, """
                sources:
                  claims:
                    engine: fake
                    mode: badmask
                    policy:
                      tables: {claims: "*", regions: "*"}
                      masks:
                        regions.manager: "upper(manager)"
                """);
        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of())) {
            assertThatThrownBy(() -> guard.start("claims")).isInstanceOf(ConfigException.class)
                    .hasMessage(config + ", line 8, sources.claims.policy.masks.regions.manager: The mask of column manager of table"
                            + " regions does not bind.");
        }
    }
}
