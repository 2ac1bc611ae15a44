package dev.sqlguard.app.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * {@code sqlguard policy export}: the row filters and masks written as PostgreSQL row-level security
 * (applied on the real server: the read-only account sees only the tenant its session names, and
 * nothing without it) and as Trino file-based access-control rules (read back).
 */
class PolicyExportTest {
    @TempDir
    Path dir;

    private CliRun export(String yaml, String... args) throws IOException {
        Path config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, yaml);
        List<String> all = new ArrayList<>(List.of("policy", "export", "--config", config.toString()));
        all.addAll(List.of(args));
        return CliRun.of(dir, "", Map.of("PG_PASSWORD", "not-used"), all.toArray(String[]::new));
    }

    private static String postgresSource(String schema) {
        return """
                sources:
                  ledger:
                    engine: postgresql
                    url: jdbc:postgresql://127.0.0.1:5432/test
                    username: reader
                    password: ${PG_PASSWORD}
                    defaultSchema: %s
                    policy:
                      rows:
                        claims: "region = :tenant"
                        audit.events: "org = :tenant AND kind <> 'x'"
                      masks:
                        claims.ssn: "'***'"
                """.formatted(schema);
    }

    @Test
    void postgresRlsReadsTheSessionSettingAndListsMasksInAComment() throws IOException {
        CliRun run = export(postgresSource("finance"), "--format", "postgres-rls");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("""
                ALTER TABLE "audit"."events" ENABLE ROW LEVEL SECURITY;
                ALTER TABLE "audit"."events" FORCE ROW LEVEL SECURITY;
                DROP POLICY IF EXISTS "sqlguard_events" ON "audit"."events";
                CREATE POLICY "sqlguard_events" ON "audit"."events" FOR SELECT USING (org = current_setting('sqlguard.tenant', true) AND kind <> 'x');
                ALTER TABLE "finance"."claims" ENABLE ROW LEVEL SECURITY;
                ALTER TABLE "finance"."claims" FORCE ROW LEVEL SECURITY;
                DROP POLICY IF EXISTS "sqlguard_claims" ON "finance"."claims";
                CREATE POLICY "sqlguard_claims" ON "finance"."claims" FOR SELECT USING (region = current_setting('sqlguard.tenant', true));
                -- Column masks are not exported: row-level security filters rows and cannot change a column's values.
                """).contains("--   claims.ssn\n");
        // every line is a statement or a comment: the file can be fed to psql as it is
        assertThat(run.out().lines()).allMatch(l -> l.startsWith("--") || l.endsWith(";"));
        assertThat(run.out()).doesNotContain("'***'");
    }

    @Test
    void postgresRlsAppliedOnTheServerShowsTheReadOnlyAccountOnlyItsTenantsRows() throws Exception {
        String url = System.getenv("SQLGUARD_PG_URL");
        assumeTrue(url != null && System.getenv("SQLGUARD_PG_ADMIN_USER") != null, "no PostgreSQL server (SQLGUARD_PG_URL)");
        String admin = System.getenv("SQLGUARD_PG_ADMIN_USER");
        String adminPassword = System.getenv("SQLGUARD_PG_ADMIN_PASSWORD");
        String reader = System.getenv("SQLGUARD_PG_RO_USER");
        String readerPassword = System.getenv("SQLGUARD_PG_RO_PASSWORD");
        String schema = "rls_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(url, admin, adminPassword); Statement s = c.createStatement()) {
            s.execute("CREATE SCHEMA " + schema);
            try {
                s.execute("CREATE TABLE " + schema + ".claims (id integer PRIMARY KEY, region text NOT NULL, amount numeric(10,2))");
                s.execute("INSERT INTO " + schema + ".claims SELECT i, (ARRAY['north','south','east','west'])[1 + i % 4], i * 10"
                        + " FROM generate_series(1, 60) AS i");
                s.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + reader);
                s.execute("GRANT SELECT ON " + schema + ".claims TO " + reader);

                CliRun run = export("""
                        sources:
                          ledger:
                            engine: postgresql
                            url: %s
                            username: reader
                            password: ${PG_PASSWORD}
                            defaultSchema: %s
                            policy:
                              rows: {claims: "region = :tenant"}
                        """.formatted(url, schema), "--format", "postgres-rls");
                assertThat(run.code()).as(run.err()).isZero();
                s.execute(run.out()); // applied as the administrator, as an operator would with psql
                s.execute(run.out()); // and again: the export can be applied twice

                try (Connection ro = DriverManager.getConnection(url, reader, readerPassword); Statement r = ro.createStatement()) {
                    assertThat(ids(r, "SELECT id FROM " + schema + ".claims ORDER BY id")).as("no setting: no row").isEmpty();
                    r.execute("SET sqlguard.tenant = 'north'");
                    List<Integer> north = ids(r, "SELECT id FROM " + schema + ".claims ORDER BY id");
                    assertThat(north).hasSize(15).allMatch(id -> id % 4 == 0);
                    assertThat(ids(r, "SELECT count(*) FROM " + schema + ".claims WHERE region = 'south'")).containsExactly(0);
                    r.execute("SET sqlguard.tenant = 'south'");
                    assertThat(ids(r, "SELECT id FROM " + schema + ".claims ORDER BY id")).hasSize(15).allMatch(id -> id % 4 == 1);
                    r.execute("RESET sqlguard.tenant");
                    assertThat(ids(r, "SELECT id FROM " + schema + ".claims")).as("a reset setting: no row").isEmpty();
                }
            } finally {
                s.execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    private static List<Integer> ids(Statement s, String sql) throws SQLException {
        List<Integer> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getInt(1));
            }
        }
        return out;
    }

    private static final String TRINO = """
            sources:
              lake:
                engine: trino
                url: jdbc:trino://trino.internal:8080
                user: sqlguard_reader
                catalog: hive
                schema: sales
                policy:
                  rows:
                    orders: "tenant_id = :tenant"
                    crm.users: "org_id = :tenant AND deleted_at IS NULL"
                  masks:
                    crm.users.ssn: "'***-**-' || substr(ssn, 8)"
                    crm.users.email: "'hidden'"
            """;

    @Test
    void trinoRulesCompareWithTheTrinoUserByDefault() throws IOException {
        CliRun run = export(TRINO, "--format", "trino-rules");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode rules = CliRun.parse(run.out()).get("tables");
        assertThat(rules).hasSize(2);
        JsonNode users = rules.get(0);
        assertThat(users.has("user")).as("one rule for every user").isFalse();
        assertThat(users.get("catalog").asText()).isEqualTo("hive");
        assertThat(users.get("schema").asText()).isEqualTo("crm");
        assertThat(users.get("table").asText()).isEqualTo("users");
        assertThat(users.get("privileges").toString()).isEqualTo("[\"SELECT\"]");
        assertThat(users.get("filter").asText()).isEqualTo("org_id = current_user AND deleted_at IS NULL");
        assertThat(users.get("columns").toString()).isEqualTo(
                "[{\"name\":\"email\",\"mask\":\"'hidden'\"},{\"name\":\"ssn\",\"mask\":\"'***-**-' || substr(ssn, 8)\"}]");
        JsonNode orders = rules.get(1);
        assertThat(orders.get("schema").asText()).as("the source's schema").isEqualTo("sales");
        assertThat(orders.get("table").asText()).isEqualTo("orders");
        assertThat(orders.get("filter").asText()).isEqualTo("tenant_id = current_user");
        assertThat(orders.has("columns")).isFalse();
    }

    @Test
    void trinoRulesForListedUsersFixTheirValueAndDenyEveryOtherUser() throws IOException {
        CliRun run = export(TRINO, "--format", "trino-rules", "--user", "alice=north", "--user", "o.brien=O'Neil");

        assertThat(run.code()).as(run.err()).isZero();
        JsonNode rules = CliRun.parse(run.out()).get("tables");
        assertThat(rules).hasSize(6);
        assertThat(rules.get(0).get("user").asText()).isEqualTo("alice");
        assertThat(rules.get(0).get("filter").asText()).isEqualTo("org_id = 'north' AND deleted_at IS NULL");
        assertThat(rules.get(1).get("filter").asText()).isEqualTo("tenant_id = 'north'");
        assertThat(rules.get(2).get("user").asText()).as("a user name that is not plain is quoted as a regex").isEqualTo("\\Qo.brien\\E");
        assertThat(rules.get(3).get("filter").asText()).isEqualTo("tenant_id = 'O''Neil'");
        for (int i = 4; i < 6; i++) {
            JsonNode deny = rules.get(i);
            assertThat(deny.has("user")).isFalse();
            assertThat(deny.get("privileges")).as("any other user: no access").isEmpty();
            assertThat(deny.has("filter")).isFalse();
        }
        assertThat(rules.get(4).get("table").asText()).isEqualTo("users");
        assertThat(rules.get(5).get("table").asText()).isEqualTo("orders");
    }

    @Test
    void whatCannotBeExportedIsAUsageError() throws IOException {
        CliRun twoAttributes = export(TRINO.replace("deleted_at IS NULL", "region = :region"), "--format", "trino-rules");
        assertThat(twoAttributes.code()).isEqualTo(2);
        assertThat(twoAttributes.err()).contains("the row filters take 2 attributes (tenant, region); a Trino rule can express one, the user");

        CliRun wrongEngine = export(TRINO, "--format", "postgres-rls");
        assertThat(wrongEngine.code()).isEqualTo(2);
        assertThat(wrongEngine.err()).contains("source 'lake' uses engine 'trino'; postgres-rls is for a postgresql source");

        CliRun nothing = export("""
                sources:
                  lake:
                    engine: trino
                    url: jdbc:trino://trino.internal:8080
                    user: sqlguard_reader
                    catalog: hive
                    schema: sales
                """, "--format", "trino-rules");
        assertThat(nothing.code()).isEqualTo(2);
        assertThat(nothing.err()).contains("source 'lake' has no policy.rows or policy.masks to export");

        for (String[] args : List.of(new String[] {"--format", "xml"}, new String[] {"--format", "postgres-rls", "--user", "a=b"},
                new String[] {"--format", "trino-rules", "--user", "alice"}, new String[] {"--format", "trino-rules", "--source", "nope"},
                new String[] {})) {
            CliRun run = export(TRINO, args);
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.out()).as(String.join(" ", args)).isEmpty();
        }
        CliRun noConfig = CliRun.of(dir.resolve("nowhere"), "", Map.of(), "policy", "export", "--format", "trino-rules");
        assertThat(noConfig.code()).isEqualTo(2);
        assertThat(noConfig.err()).contains("policy export needs a configuration");
        CliRun group = CliRun.of(dir, "", Map.of(), "policy");
        assertThat(group.code()).isEqualTo(2);
        assertThat(group.err()).contains("sqlguard policy export");
    }
}
