package dev.sqlguard.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.jdbc.SourceSettings;
import dev.sqlguard.mysql.internal.MySqlSettings;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;

/** Configuration checks that need no server: they all fail before any connection is opened. */
class MySqlEngineFactoryTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("id"))),
            Set.of(), Set.of(), Set.of(), Limits.defaults());

    private static Map<String, String> props(String url) {
        Map<String, String> p = new HashMap<>();
        p.put("url", url);
        p.put("username", "reader");
        p.put("password", "pw-in-test-only");
        return p;
    }

    private static GuardException refusal(Map<String, String> props, GuardrailPolicy policy) {
        try {
            new MySqlEngineFactory().create(new EngineConfig("src", props, policy), EngineContext.of(Path.of("target")));
        } catch (GuardException e) {
            return e;
        }
        throw new AssertionError("accepted");
    }

    @Test
    void isRegisteredUnderItsNameWithItsProperties() {
        List<EngineFactory> factories = ServiceLoader.load(EngineFactory.class).stream().map(ServiceLoader.Provider::get).toList();
        assertThat(factories).extracting(EngineFactory::name).contains("mysql");
        EngineFactory f = new MySqlEngineFactory();
        assertThat(f.sensitivePropertyNames()).containsExactly("password");
        assertThat(f.propertyNames()).containsExactlyInAnyOrder("url", "username", "password", "defaultSchema",
                "requireReadOnlyAccount", "poolSize", "maxConcurrentQueries");
    }

    @Test
    void refusesAPolicyWithoutAllowlist() {
        GuardException e = refusal(props("jdbc:mysql://127.0.0.1:1/db"), GuardrailPolicy.defaults());
        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThat(e.getMessage()).contains("allowlist");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "jdbc:mysql://h/db?allowMultiQueries=true", "jdbc:mysql://h/db?ALLOWMULTIQUERIES=true",
        "jdbc:mysql://h/db?allowLoadLocalInfile=true", "jdbc:mysql://h/db?allowUrlInLocalInfile=true",
        "jdbc:mysql://h/db?autoDeserialize=true", "jdbc:mysql://h/db?sessionVariables=sql_mode%3D%27%27",
        "jdbc:mysql://h/db?queryInterceptors=x.Y", "jdbc:mysql://h/db?autoReconnect=true", "jdbc:mysql://h/db?user=root",
        "jdbc:mysql://h/db?password=x", "jdbc:mysql://h/db?useCursorFetch=true", "jdbc:mysql://h/db?someUnknown=1",
        "jdbc:mysql://user:pw@h/db", "jdbc:mysql://h1,h2/db", "jdbc:mysql://(host=h,allowMultiQueries=true)/db",
        "jdbc:mysql://address=(host=h)(allowMultiQueries=true)/db", "jdbc:mysql:loadbalance://h/db",
        "jdbc:mariadb://h/db", "jdbc:mysql://h/db?sslMode=REQUIRED&sslMode=DISABLED", "jdbc:mysql://h/db?x", ""})
    void refusesDangerousOrUnknownUrls(String url) {
        GuardException e = refusal(props(url), POLICY);
        assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        assertThat(e.getMessage()).doesNotContain("pw-in-test-only");
    }

    @Test
    void checksEveryOtherProperty() {
        Map<String, String> unknown = props("jdbc:mysql://h/db");
        unknown.put("allowMultiQueries", "true");
        assertThat(refusal(unknown, POLICY).getMessage()).contains("unknown property 'allowMultiQueries'");

        Map<String, String> noSchema = props("jdbc:mysql://h");
        assertThat(refusal(noSchema, POLICY).getMessage()).contains("defaultSchema");

        Map<String, String> badPool = props("jdbc:mysql://h/db");
        badPool.put("poolSize", "0");
        assertThat(refusal(badPool, POLICY).getMessage()).contains("poolSize");

        Map<String, String> badFlag = props("jdbc:mysql://h/db");
        badFlag.put("requireReadOnlyAccount", "yes");
        assertThat(refusal(badFlag, POLICY).getMessage()).contains("requireReadOnlyAccount");

        Map<String, String> noUser = props("jdbc:mysql://h/db");
        noUser.remove("username");
        assertThat(refusal(noUser, POLICY).getMessage()).contains("username");

        GuardrailPolicy otherSchema = POLICY.withTables(TableAllowlist.of(java.util.Optional.of("other"), Map.of("claims", List.of("id"))));
        assertThat(refusal(props("jdbc:mysql://h/db"), otherSchema).getMessage()).contains("default schema");
    }

    @Test
    void settingsKeepOnlyAllowlistedUrlPropertiesAndHideThePassword() {
        MySqlSettings s = MySqlSettings.parse(new EngineConfig("src",
                props("jdbc:mysql://db.example:3307/app?sslMode=REQUIRED&connectTimeout=5000"), POLICY));
        assertThat(s.jdbcUrl()).isEqualTo("jdbc:mysql://db.example:3307/app?connectTimeout=5000&sslMode=REQUIRED");
        assertThat(s.schema()).isEqualTo("app");
        assertThat(s.poolSize()).isEqualTo(SourceSettings.DEFAULT_POOL_SIZE);
        assertThat(s.requireReadOnlyAccount()).isFalse();
        assertThat(s.toString()).doesNotContain("pw-in-test-only");
        Map<String, String> withSchema = props("jdbc:mysql://h");
        withSchema.put("defaultSchema", "reports");
        withSchema.put("poolSize", "8");
        withSchema.put("requireReadOnlyAccount", "true");
        MySqlSettings t = MySqlSettings.parse(new EngineConfig("src", withSchema, POLICY));
        assertThat(t.schema()).isEqualTo("reports");
        assertThat(t.poolSize()).isEqualTo(8);
        assertThat(t.maxConcurrentQueries()).isEqualTo(8); // defaults to the pool size
        assertThat(t.requireReadOnlyAccount()).isTrue();
        withSchema.put("maxConcurrentQueries", "3");
        assertThat(MySqlSettings.parse(new EngineConfig("src", withSchema, POLICY)).maxConcurrentQueries()).isEqualTo(3);
        withSchema.put("maxConcurrentQueries", "0");
        assertThatThrownBy(() -> MySqlSettings.parse(new EngineConfig("src", withSchema, POLICY)))
                .hasMessageContaining("maxConcurrentQueries");
        // socket timeouts follow the time limit unless the URL sets them
        java.util.Properties net = MySqlEngineFactory.networkProperties(t, new java.util.Properties(), 5_000);
        assertThat(net.getProperty("connectTimeout")).isEqualTo("5000");
        assertThat(net.getProperty("socketTimeout")).isEqualTo("7000");
        assertThat(MySqlEngineFactory.networkProperties(s, new java.util.Properties(), 5_000).getProperty("connectTimeout")).isNull();
    }

    @Test
    void unreachableServerIsEngineUnavailableWithoutCoordinates() {
        GuardException e = refusal(props("jdbc:mysql://127.0.0.1:1/db?connectTimeout=500"), POLICY);
        assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(e.getMessage()).doesNotContain("127.0.0.1").doesNotContain("reader").doesNotContain("pw-in-test-only");
    }
}
