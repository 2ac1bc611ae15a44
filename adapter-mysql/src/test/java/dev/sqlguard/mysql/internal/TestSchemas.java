package dev.sqlguard.mysql.internal;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** The contract dataset's schema as a static snapshot, for validator tests without a server. */
final class TestSchemas {
    static final String SCHEMA = "guard";

    private TestSchemas() {
    }

    static SchemaSnapshot snapshot() {
        return SchemaSnapshot.caseInsensitive(SCHEMA, List.of(
                table("claims", "id", "region", "amount", "status", "created", "ssn"),
                table("regions", "region", "manager"),
                table("users", "id", "name", "password", "api_key"),
                table("secrets", "id", "value")));
    }

    private static TableInfo table(String name, String... columns) {
        return new TableInfo(SCHEMA, name, java.util.Arrays.stream(columns).map(c -> new ColumnInfo(c, "varchar(16)")).toList(), OptionalLong.of(10));
    }

    /** claims (all but ssn), regions (all), users (all); secrets is not allowlisted. */
    static GuardrailPolicy policy() {
        TableAllowlist tables = TableAllowlist.of(Optional.of(SCHEMA), Map.of(
                "claims", List.of("id", "region", "amount", "status", "created"),
                "regions", List.of("*"),
                "users", List.of("id", "name", "password", "api_key")));
        return new GuardrailPolicy(tables, Set.of(), Set.of(), Set.of(), Limits.defaults().withMaxRows(100));
    }

    /** Validates and authorizes, as QueryService does: the validator reports facts, the policy decides. */
    static dev.sqlguard.domain.QueryPlan authorized(MySqlValidator validator, GuardrailPolicy policy, String sql, Object... params) {
        dev.sqlguard.domain.QueryPlan plan = validator.validate(dev.sqlguard.domain.QueryRequest.of("src", sql, params));
        // the policy in force: the configured one with the engine's reported function classes
        policy.orEngineFunctions(MySqlFunctions.classes(MySqlValidator.DEFAULT_FUNCTIONS)).authorize(plan);
        return plan;
    }

    static MySqlValidator validator() {
        return new MySqlValidator("src", snapshot(), policy(), Optional.empty());
    }
}
