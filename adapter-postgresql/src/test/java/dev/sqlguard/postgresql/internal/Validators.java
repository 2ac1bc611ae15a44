package dev.sqlguard.postgresql.internal;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.ColumnInfo;
import dev.sqlguard.jdbc.ansi.SchemaSnapshot.TableInfo;

/** A validator over a fixed catalog (the contract tables in schema {@code s}), without a server. */
final class Validators {
    private Validators() {
    }

    static SchemaSnapshot schema() {
        return SchemaSnapshot.of("s", List.of(
                new TableInfo("s", "claims", List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("region", "varchar(16)"),
                        new ColumnInfo("amount", "numeric(12,2)"), new ColumnInfo("status", "varchar(16)"),
                        new ColumnInfo("created", "date"), new ColumnInfo("ssn", "varchar(16)")), OptionalLong.empty()),
                new TableInfo("s", "regions", List.of(new ColumnInfo("region", "varchar(16)"), new ColumnInfo("manager", "varchar(32)")),
                        OptionalLong.empty()),
                new TableInfo("s", "users", List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("name", "varchar(32)"),
                        new ColumnInfo("password", "varchar(64)"), new ColumnInfo("api_key", "varchar(64)")), OptionalLong.empty()),
                new TableInfo("s", "secrets", List.of(new ColumnInfo("id", "bigint"), new ColumnInfo("token", "text")), OptionalLong.empty())));
    }

    static GuardrailPolicy policy() {
        TableAllowlist tables = new TableAllowlist(java.util.Optional.of("s"), TableAllowlist.of(Map.of(
                "claims", List.of("*"), "regions", List.of("*"), "users", List.of("id", "name", "password"))).tables(), true);
        return new GuardrailPolicy(tables, Set.of(), Set.of(), Set.of(), Limits.defaults()).withFunctions(FunctionCatalog.defaults());
    }

    static PostgresValidator validator() {
        return new PostgresValidator("t", schema(), policy(), null);
    }
}
