package dev.sqlguard.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.EngineConfig;

/** Strict URL parsing and the factories' shared configuration checks. */
class JdbcUrlTest {
    private static final JdbcUrl.Rules NEEDS_DATABASE = new JdbcUrl.Rules("postgresql", true, Set.of("sslmode", "connecttimeout"),
            Set.of("options", "password"), "TLS and timeout properties");
    private static final JdbcUrl.Rules OPTIONAL_DATABASE = new JdbcUrl.Rules("mysql", false, Set.of("sslmode"), Set.of(), "TLS");

    private static String refusal(String url, JdbcUrl.Rules rules) {
        try {
            JdbcUrl.parse("src", "url", url, rules);
        } catch (GuardException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
            return e.safeMessage();
        }
        throw new AssertionError("accepted: " + url);
    }

    @Test
    void keepsTheHostTheDatabaseAndTheAllowedPropertiesOnly() {
        JdbcUrl url = JdbcUrl.parse("src", "url", " jdbc:postgresql://db.example:5433/app?sslMode=require&connectTimeout=5 ", NEEDS_DATABASE);
        assertThat(url.host()).isEqualTo("db.example:5433");
        assertThat(url.database()).contains("app");
        assertThat(url.text()).isEqualTo("jdbc:postgresql://db.example:5433/app?connectTimeout=5&sslMode=require");
        assertThat(url.property("SSLMODE")).contains("require");
        assertThat(JdbcUrl.parse("src", "url", "jdbc:postgresql://[::1]/app", NEEDS_DATABASE).host()).isEqualTo("[::1]");
        JdbcUrl bare = JdbcUrl.parse("src", "url", "jdbc:mysql://h", OPTIONAL_DATABASE);
        assertThat(bare.database()).isEmpty();
        assertThat(bare.text()).isEqualTo("jdbc:mysql://h/");
        assertThat(JdbcUrl.parse("src", "url", "jdbc:mysql://h/?sslMode=x%26y", OPTIONAL_DATABASE).text())
                .isEqualTo("jdbc:mysql://h/?sslMode=x%26y");
    }

    @Test
    void refusesEveryOtherShapeWithoutRepeatingIt() {
        for (String url : List.of("jdbc:postgresql://h", "jdbc:postgresql://u:secret@h/db", "jdbc:postgresql://h1,h2/db",
                "jdbc:mysql://h/db", "jdbc:postgresql://h/db;x=1", "jdbc:postgresql://h:123456/db")) {
            assertThat(refusal(url, NEEDS_DATABASE)).contains("'url' must be jdbc:postgresql://host[:port]/database").doesNotContain("secret");
        }
        assertThat(refusal("jdbc:postgresql://h/db?options=-c", NEEDS_DATABASE)).contains("'options'", "controls itself or refuses");
        assertThat(refusal("jdbc:postgresql://h/db?PassWord=secret", NEEDS_DATABASE)).contains("'PassWord'").doesNotContain("secret");
        assertThat(refusal("jdbc:postgresql://h/db?frob=1", NEEDS_DATABASE)).contains("unsupported", "TLS and timeout properties");
        assertThat(refusal("jdbc:postgresql://h/db?s3cr%2Ft-token=1", NEEDS_DATABASE)).contains("(withheld)").doesNotContain("token");
        assertThat(refusal("jdbc:postgresql://h/db?sslmode=a&sslmode=b", NEEDS_DATABASE)).contains("twice");
        assertThat(refusal("jdbc:postgresql://h/db?sslmode", NEEDS_DATABASE)).contains("malformed");
        assertThat(refusal("jdbc:mysql://h:1/db?a=b", OPTIONAL_DATABASE)).contains("supported: TLS.");
    }

    private static EngineConfig config(Map<String, String> properties, TableAllowlist tables) {
        return new EngineConfig("src", properties, new GuardrailPolicy(tables, Set.of(), Set.of(), Set.of(),
                dev.sqlguard.domain.Limits.defaults()));
    }

    @Test
    void wholeNumbersAreBoundedAndNamedByTheirKey() {
        TableAllowlist tables = TableAllowlist.of(Map.of("t", List.of("*")));
        assertThat(SourceSettings.wholeNumber(config(Map.of(), tables), "poolSize", 1, 64, 4)).isEqualTo(4);
        assertThat(SourceSettings.wholeNumber(config(Map.of("poolSize", " 8 "), tables), "poolSize", 1, 64, 4)).isEqualTo(8);
        for (String bad : List.of("0", "65", "x", "1.5")) {
            assertThatThrownBy(() -> SourceSettings.wholeNumber(config(Map.of("poolSize", bad), tables), "poolSize", 1, 64, 4))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage())
                            .isEqualTo("Source 'src': 'poolSize' must be a whole number from 1 to 64."));
        }
    }

    @Test
    void aNetworkSourceNeedsAnAllowlistInItsOwnSchema() {
        TableAllowlist plain = TableAllowlist.of(Map.of("t", List.of("*")));
        GuardrailPolicy policy = SourceSettings.allowlistIn("pg", config(Map.of(), plain), "sales", s -> s);
        assertThat(policy.tables().defaultSchema()).contains("sales");
        assertThat(policy.tables().tables()).isEqualTo(plain.tables());
        assertThatThrownBy(() -> SourceSettings.allowlistIn("pg", config(Map.of(), TableAllowlist.unrestricted()), "sales", s -> s))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("the pg engine needs a table allowlist"));
        TableAllowlist other = TableAllowlist.of(Optional.of("other"), Map.of("t", List.of("*")));
        assertThatThrownBy(() -> SourceSettings.allowlistIn("pg", config(Map.of(), other), "sales", s -> s))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("default schema"));
        TableAllowlist sales = TableAllowlist.of(Optional.of("Sales"), Map.of("t", List.of("*"))); // the domain folds it: sales
        assertThatThrownBy(() -> SourceSettings.allowlistIn("pg", config(Map.of(), sales), "SALES", s -> s))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.safeMessage()).contains("default schema"));
        assertThat(SourceSettings.allowlistIn("my", config(Map.of(), sales), "SALES", s -> s.toLowerCase(java.util.Locale.ROOT))
                .tables().defaultSchema()).contains("sales");
    }
}
