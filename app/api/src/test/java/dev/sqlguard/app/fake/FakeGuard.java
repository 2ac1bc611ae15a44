package dev.sqlguard.app.fake;

import java.util.List;
import java.util.Map;

import dev.sqlguard.app.SqlGuard;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.RowPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.domain.port.AuditSink;

/** Facades on the fake engine, for the tests of the facade and of the layers built on it. */
public final class FakeGuard {
    private FakeGuard() {
    }

    /** Sources {@code claims} (two rows; table claims with id and region allowlisted) and {@code other} (defaults). */
    public static SqlGuard twoSources(AuditSink audit) {
        GuardrailPolicy policy = GuardrailPolicy.defaults().withTables(TableAllowlist.of(Map.of("claims", List.of("id", "region"))));
        return SqlGuard.builder()
                .source("claims", "fake", Map.of("rows", "2"), policy)
                .source("other", "fake", Map.of(), GuardrailPolicy.defaults())
                .auditSink(audit)
                .build();
    }

    /** The policy of {@link #tenants}: claims filtered by {@code :tenant}, regions' manager masked. */
    public static GuardrailPolicy tenantPolicy() {
        return GuardrailPolicy.defaults().withRows(RowPolicy.of(java.util.Optional.empty(),
                Map.of("claims", "region = :tenant"), Map.of("regions.manager", "upper(manager)")));
    }

    /** Source {@code claims} (two rows) whose table claims is filtered per tenant ({@link #tenantPolicy}). */
    public static SqlGuard.Builder tenants() {
        return SqlGuard.builder().source("claims", "fake", Map.of("rows", "2"), tenantPolicy());
    }

    /** A secret the engine of {@link #withSecret} leaks in the error of a statement that names {@code leak}. */
    public static final String SECRET = "correct-horse-battery";

    /** Source {@code s} (three rows) whose sensitive {@code password} is {@link #SECRET}. */
    public static SqlGuard withSecret(AuditSink audit) {
        return SqlGuard.builder().source("s", "fake", Map.of("password", SECRET), GuardrailPolicy.defaults())
                .auditSink(audit).build();
    }
}
