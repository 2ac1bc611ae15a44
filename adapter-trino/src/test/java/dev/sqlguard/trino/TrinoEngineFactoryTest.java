package dev.sqlguard.trino;

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
import org.junit.jupiter.params.provider.CsvSource;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.trino.internal.TrinoSettings;

/** Discovery, settings and their defaults, and each bad value's message; no cluster needed. */
class TrinoEngineFactoryTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("*"))),
            Set.of(), Set.of(), Set.of(), Limits.defaults());

    private static Map<String, String> good() {
        Map<String, String> p = new HashMap<>();
        p.put("url", "jdbc:trino://127.0.0.1:1");
        p.put("user", "sqlguard_ro");
        p.put("catalog", "memory");
        p.put("schema", "default");
        return p;
    }

    @Test
    void isDiscoveredByItsName() {
        assertThat(ServiceLoader.load(EngineFactory.class).stream().map(ServiceLoader.Provider::get).map(EngineFactory::name))
                .contains("trino");
        EngineFactory f = new TrinoEngineFactory();
        assertThat(f.properties()).extracting(PropertySpec::name)
                .containsExactlyInAnyOrder("url", "user", "catalog", "schema", "password", "ssl", "sslTrustStorePath",
                        "sslTrustStorePassword", "requireReadOnlyAccount");
        assertThat(f.sensitivePropertyNames()).containsExactlyInAnyOrder("password", "sslTrustStorePassword");
        assertThat(f.dialect().identifierQuote()).contains('"');
    }

    @Test
    void settingsHaveSafeDefaultsAndSendTheLimitsAsSessionProperties() {
        TrinoSettings s = TrinoSettings.parse(new EngineConfig("src", good(), POLICY));
        assertThat(s.jdbcUrl()).isEqualTo("jdbc:trino://127.0.0.1:1");
        assertThat(s.requireReadOnlyAccount()).isTrue();
        assertThat(s.ssl()).isFalse();
        var props = s.driverProperties(Limits.defaults());
        assertThat(props.getProperty("sessionProperties"))
                .isEqualTo("query_max_execution_time:10s;query_max_run_time:10s;query_max_memory:244MB");
        assertThat(props.getProperty("catalog")).isEqualTo("memory");
        assertThat(props.getProperty("schema")).isEqualTo("default");
        assertThat(props.getProperty("password")).isNull();
        assertThat(s.toString()).doesNotContain("password");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "url|jdbc:trino://h:8080/memory/default|'url' must be jdbc:trino://host[:port]",
            "url|jdbc:trino://h:8080?sessionProperties=query_max_execution_time:1h|'url' must be jdbc:trino://host[:port]",
            "url|jdbc:postgresql://h/db|'url' must be jdbc:trino://host[:port]",
            "user|a b|'user' must be",
            "catalog|Memory|'catalog' must be a plain lower-case name",
            "schema|x;y|'schema' must be a plain lower-case name",
            "password|secret-value|'password' needs 'ssl: true'",
            "sslTrustStorePath|/tmp/x.jks|need 'ssl: true'"})
    void refusesBadValuesWithAMessageNamingTheKey(String key, String value, String message) {
        Map<String, String> p = good();
        p.put(key, value);
        assertThatThrownBy(() -> new TrinoEngineFactory().create(new EngineConfig("src", p, POLICY), EngineContext.of(Path.of("target"))))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains(message).doesNotContain("secret-value");
                });
    }

    @Test
    void refusesAnUnknownKeyAndAPolicyWithoutAllowlist() {
        Map<String, String> p = good();
        p.put("sessionProperties", "x");
        assertThatThrownBy(() -> new TrinoEngineFactory().create(new EngineConfig("src", p, POLICY), EngineContext.of(Path.of("target"))))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        assertThatThrownBy(() -> new TrinoEngineFactory().create(new EngineConfig("src", good(), GuardrailPolicy.defaults()),
                EngineContext.of(Path.of("target")))).isInstanceOfSatisfying(GuardException.class,
                e -> assertThat(e.safeMessage()).contains("needs a table allowlist"));
    }

    @Test
    void anUnreachableClusterIsUnavailableWithoutNamingIt() {
        assertThatThrownBy(() -> new TrinoEngineFactory().create(new EngineConfig("src", good(), POLICY), EngineContext.of(Path.of("target"))))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                    assertThat(e.safeMessage()).doesNotContain("127.0.0.1").doesNotContain("sqlguard_ro");
                });
    }
}
