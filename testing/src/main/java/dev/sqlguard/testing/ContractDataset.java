package dev.sqlguard.testing;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The data every engine under the contract suite must hold, created by the engine's fixture
 * through its own trusted path. Portable DDL and literal INSERTs are offered for convenience.
 *
 * <pre>
 * claims (id BIGINT, region VARCHAR(16), amount DECIMAL(12,2), status VARCHAR(16), created DATE, ssn VARCHAR(16))  60 rows
 * regions(region VARCHAR(16), manager VARCHAR(32))                                                                  4 rows
 * users  (id BIGINT, name VARCHAR(32), password VARCHAR(64), api_key VARCHAR(64))                                   3 rows
 * </pre>
 */
public final class ContractDataset {
    public static final List<String> REGIONS = List.of("north", "south", "east", "west");
    public static final List<String> STATUSES = List.of("APPROVED", "DENIED", "PENDING");
    /** Secrets that must never appear in any result or message. */
    public static final List<String> SECRETS = List.of(
            "hunter2-alice-pw", "s3cr3t-bob-pw", "carol-pw-zz9",
            "ak_live_alice_0001", "ak_live_bob_0002", "ak_live_carol_0003",
            "123-45-6789");

    public record Claim(long id, String region, BigDecimal amount, String status, LocalDate created, String ssn) {
    }

    public record User(long id, String name, String password, String apiKey) {
    }

    public record Region(String region, String manager) {
    }

    private ContractDataset() {
    }

    public static List<Claim> claims() {
        List<Claim> out = new ArrayList<>();
        for (int i = 1; i <= 60; i++) {
            String region = REGIONS.get(i % 4);
            BigDecimal amount = BigDecimal.valueOf(i * 1000L + (i * 37L) % 100, 2).add(BigDecimal.valueOf(i * 7L));
            String status = STATUSES.get(i % 3);
            LocalDate created = LocalDate.of(2024, 1, 1).plusDays(i * 5L);
            String ssn = i == 1 ? "123-45-6789" : String.format(Locale.ROOT, "900-00-%04d", i);
            out.add(new Claim(i, region, amount, status, created, ssn));
        }
        return out;
    }

    public static List<User> users() {
        return List.of(
                new User(1, "alice", "hunter2-alice-pw", "ak_live_alice_0001"),
                new User(2, "bob", "s3cr3t-bob-pw", "ak_live_bob_0002"),
                new User(3, "carol", "carol-pw-zz9", "ak_live_carol_0003"));
    }

    public static List<Region> regions() {
        return List.of(new Region("north", "Nadia"), new Region("south", "Sam"),
                new Region("east", "Erin"), new Region("west", "Wes"));
    }

    /** Portable DDL (DuckDB and MySQL accept it), one statement per entry. */
    public static List<String> ddl() {
        return List.of(
                "CREATE TABLE claims (id BIGINT PRIMARY KEY, region VARCHAR(16), amount DECIMAL(12,2), status VARCHAR(16), created DATE, ssn VARCHAR(16))",
                "CREATE TABLE regions (region VARCHAR(16) PRIMARY KEY, manager VARCHAR(32))",
                "CREATE TABLE users (id BIGINT PRIMARY KEY, name VARCHAR(32), password VARCHAR(64), api_key VARCHAR(64))");
    }

    /** Portable INSERT statements with literals, one per table. */
    public static List<String> inserts() {
        StringBuilder claims = new StringBuilder("INSERT INTO claims (id, region, amount, status, created, ssn) VALUES ");
        List<Claim> rows = claims();
        for (int i = 0; i < rows.size(); i++) {
            Claim c = rows.get(i);
            claims.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "(%d, '%s', %s, '%s', DATE '%s', '%s')",
                    c.id(), c.region(), c.amount().toPlainString(), c.status(), c.created(), c.ssn()));
        }
        StringBuilder users = new StringBuilder("INSERT INTO users (id, name, password, api_key) VALUES ");
        for (int i = 0; i < users().size(); i++) {
            User u = users().get(i);
            users.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "(%d, '%s', '%s', '%s')",
                    u.id(), u.name(), u.password(), u.apiKey()));
        }
        StringBuilder regions = new StringBuilder("INSERT INTO regions (region, manager) VALUES ");
        for (int i = 0; i < regions().size(); i++) {
            Region r = regions().get(i);
            regions.append(i == 0 ? "" : ", ").append(String.format(Locale.ROOT, "('%s', '%s')", r.region(), r.manager()));
        }
        return List.of(claims.toString(), users.toString(), regions.toString());
    }
}
