package dev.sqlguard.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Issue 31's defence in depth on Trino: {@code sqlguard policy export --format trino-rules}, run from the packaged
 * jar, applied to a real Trino 483 cluster (file-based access control: the test cluster's own catalog rules, a rule
 * that lets {@code admin} create the data, then the exported table rules). A raw query as the read-only account then
 * sees only its tenant's rows, with the mask in place; another user is denied the governed table; and sqlguard's own
 * filter on top cannot widen what the engine lets through (a call for another tenant gets no rows).
 */
@Timeout(600)
class TrinoRulesExportIT {
    @TempDir
    Path dir;

    @Test
    void theExportedRulesLetTheReadOnlyAccountSeeOnlyItsTenantsRowsOnTheCluster() throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        JarRunner sqlguard = new JarRunner(dir.resolve("home"), work);
        String schema = ServerAccounts.unique();
        Files.writeString(work.resolve("sqlguard.yaml"), config("jdbc:trino://127.0.0.1:1", schema));

        JarRunner.Run export = sqlguard.run("policy", "export", "--source", "lake", "--format", "trino-rules", "--user", "sqlguard_ro=north");
        assertThat(export.code()).as(export.err()).isZero();
        JsonNode exported = export.document().get("tables");
        assertThat(exported).as(export.out()).isNotEmpty();

        ObjectNode rules = (ObjectNode) JarRunner.JSON.readTree(TrinoClusters.testRules());
        ArrayNode tables = rules.putArray("tables");
        ObjectNode admin = tables.addObject().put("user", "admin");
        admin.putArray("privileges").add("SELECT").add("INSERT").add("DELETE").add("UPDATE").add("OWNERSHIP").add("GRANT_SELECT");
        exported.forEach(tables::add);

        try (TrinoClusters.Cluster cluster = TrinoClusters.start(JarRunner.JSON.writeValueAsString(rules), 1, "rules-export")) {
            try (Connection c = connect(cluster.url(), "admin"); Statement s = c.createStatement()) {
                s.execute("CREATE SCHEMA memory." + schema);
                s.execute("CREATE TABLE memory." + schema + ".claims (id bigint, region varchar, amount double, ssn varchar)");
                s.execute("INSERT INTO memory." + schema + ".claims VALUES (1, 'north', 10.5, '111-11-1111'), (2, 'south', 20.0, '222-22-2222'),"
                        + " (3, 'north', 5.0, '333-33-3333'), (4, 'east', 7.0, '444-44-4444'), (5, 'north', 1.0, '555-55-5555'),"
                        + " (6, 'south', 2.0, '666-66-6666')");
            }
            String claims = "memory." + schema + ".claims";
            assertThat(rows(cluster.url(), "admin", "SELECT count(*) FROM " + claims)).as("admin sees every tenant")
                    .containsExactly(List.of("6"));
            // the read-only account, raw, without sqlguard: only north's rows, ssn masked
            assertThat(rows(cluster.url(), "sqlguard_ro", "SELECT count(*), count(DISTINCT region), min(region), min(ssn), max(ssn),"
                    + " sum(amount) FROM " + claims)).containsExactly(List.of("3", "1", "north", "***", "***", "16.5"));
            assertThat(rows(cluster.url(), "sqlguard_ro", "SELECT count(*) FROM " + claims + " WHERE region <> 'north'"))
                    .containsExactly(List.of("0"));
            assertThat(rows(cluster.url(), "sqlguard_ro", "SELECT id FROM " + claims + " c WHERE EXISTS (SELECT 1 FROM " + claims
                    + " d WHERE d.region = 'south') ORDER BY id")).as("a probe for another tenant's rows finds none").isEmpty();
            // another user is denied the governed table
            assertThatThrownBy(() -> rows(cluster.url(), "sqlguard_rw", "SELECT count(*) FROM " + claims))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Access Denied");

            // sqlguard on top: the guard's filter for north agrees; a call for another tenant gets nothing past the engine's rule
            Files.writeString(work.resolve("sqlguard.yaml"), config(cluster.url(), schema));
            JsonNode north = sqlguard.run("query", "--source", "lake", "--attribute", "tenant=north", "--format", "json",
                    "--sql", "SELECT count(*) AS n FROM claims").json();
            assertThat(north.get("rows").toString()).as(north.toString()).isEqualTo("[[3]]");
            JsonNode south = sqlguard.run("query", "--source", "lake", "--attribute", "tenant=south", "--format", "json",
                    "--sql", "SELECT count(*) AS n FROM claims").json();
            assertThat(south.get("rows").toString()).as(south.toString()).isEqualTo("[[0]]");
        }
    }

    private static String config(String url, String schema) {
        return """
                sources:
                  lake:
                    engine: trino
                    url: %s
                    user: sqlguard_ro
                    catalog: memory
                    schema: %s
                    policy:
                      tables: {claims: [id, region, amount, ssn]}
                      rows:
                        claims: "region = :tenant"
                      masks:
                        claims.ssn: "'***'"
                """.formatted(url, schema);
    }

    private static Connection connect(String url, String user) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        return DriverManager.getConnection(url, p);
    }

    private static List<List<String>> rows(String url, String user, String sql) throws SQLException {
        try (Connection c = connect(url, user); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<List<String>> out = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
            return out;
        }
    }
}
