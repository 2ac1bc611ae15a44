package dev.sqlguard.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionConfiguration;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.postgresql.internal.FunctionCatalog;

/** Builds the engine through its factory (no server needed): discovery, settings, defaults and the message for each bad value. */
class PostgresEngineFactoryTest {
    private static final GuardrailPolicy POLICY = new GuardrailPolicy(TableAllowlist.of(Map.of("claims", List.of("*"))),
            Set.of(), Set.of(), Set.of(), Limits.defaults());

    private static Map<String, String> props(String... kv) {
        Map<String, String> m = new HashMap<>(Map.of("url", "jdbc:postgresql://127.0.0.1:1/test", "username", "u"));
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] == null) {
                m.remove(kv[i]);
            } else {
                m.put(kv[i], kv[i + 1]);
            }
        }
        return m;
    }

    private static GuardException refused(Map<String, String> props, GuardrailPolicy policy) {
        try {
            new PostgresEngineFactory().create(new EngineConfig("src", props, policy), EngineContext.of(Path.of("target")));
        } catch (GuardException e) {
            return e;
        }
        throw new AssertionError("the factory accepted " + props.keySet());
    }

    @Test
    void isDiscoveredByServiceLoaderUnderItsName() {
        assertThat(ServiceLoader.load(EngineFactory.class).stream().map(p -> p.get().name())).contains("postgresql");
    }

    @Test
    void declaresItsSettingsWithDefaultsAndMasksThePassword() {
        EngineFactory f = new PostgresEngineFactory();
        assertThat(f.properties()).extracting(PropertySpec::name)
                .containsExactly("url", "username", "password", "defaultSchema", "requireReadOnlyAccount", "poolSize");
        assertThat(f.sensitivePropertyNames()).containsExactly("password");
        assertThat(f.properties()).filteredOn(p -> p.name().equals("requireReadOnlyAccount"))
                .singleElement().satisfies(p -> assertThat(p.defaultValue()).contains("true"));
        assertThat(f.dialect().dateBucket("week", "\"d\"")).contains("CAST(date_trunc('week', \"d\") AS date)");
        assertThat(f.dialect().dateBuckets()).containsOnlyKeys("day", "week", "month", "year");
        assertThat(f.dialect().quote("a\"b")).contains("\"a\"\"b\"");
    }

    @Test
    void refusesBadSettingsWithAMessageNamingTheKey() {
        assertThat(refused(props("url", "jdbc:mysql://h/db"), POLICY).safeMessage()).contains("'url'");
        assertThat(refused(props("url", "jdbc:postgresql://h1,h2/db"), POLICY).safeMessage()).contains("'url'");
        assertThat(refused(props("url", "jdbc:postgresql://h/db?options=-c%20default_transaction_read_only%3Doff"), POLICY)
                .safeMessage()).contains("'options'");
        assertThat(refused(props("url", "jdbc:postgresql://h/db?socketFactory=x"), POLICY).safeMessage()).contains("socketFactory");
        assertThat(refused(props("url", "jdbc:postgresql://h/db?preferQueryMode=simple"), POLICY).safeMessage()).contains("preferQueryMode");
        assertThat(refused(props("url", "jdbc:postgresql://h/db?password=x"), POLICY).safeMessage()).contains("'password'");
        assertThat(refused(props("url", "jdbc:postgresql://h/db?frobnicate=1"), POLICY).safeMessage()).contains("unsupported");
        assertThat(refused(props("poolSize", "0"), POLICY).safeMessage()).contains("'poolSize'");
        assertThat(refused(props("requireReadOnlyAccount", "maybe"), POLICY).safeMessage()).contains("requireReadOnlyAccount");
        assertThat(refused(props("defaultSchema", "Public; DROP"), POLICY).safeMessage()).contains("'defaultSchema'");
        assertThat(refused(props("databse", "x"), POLICY).safeMessage()).contains("unknown property 'databse'");
        assertThat(refused(props("username", null), POLICY).safeMessage()).contains("'username'");
        for (GuardException e : List.of(refused(props("url", "jdbc:mysql://h/db"), POLICY), refused(props("poolSize", "x"), POLICY))) {
            assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        }
    }

    @Test
    void refusesAPolicyWithoutAllowlistOrWithUnclassifiedOrNeverFunctions() {
        GuardrailPolicy open = GuardrailPolicy.defaults();
        assertThat(refused(props(), open).safeMessage()).contains("allowlist");
        // the function lists are the host's decision on the engine's facts (EngineStart), made once the engine is built
        assertThat(configured(POLICY.withFunctions(Set.of("count", "levenshtein"))).safeMessage()).contains("no cost class for on PostgreSQL");
        assertThat(configured(POLICY.withFunctions(Set.of("count", "pg_read_file"))).safeMessage()).contains("never allowed on PostgreSQL");
        assertThat(configured(POLICY.withFunctions(Set.of("set_config"))).code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
        FunctionConfiguration.require("src", POLICY.withFunctions(Set.of("count", "upper")), FunctionCatalog.classes(),
                FunctionCatalog.facts(Set.of("count", "upper"), Set.of()));
    }

    private static GuardException configured(GuardrailPolicy policy) {
        try {
            FunctionConfiguration.require("src", policy, FunctionCatalog.classes(), FunctionCatalog.facts(policy.functions(),
                    policy.tableFunctions()));
        } catch (GuardException e) {
            return e;
        }
        throw new AssertionError("the configuration was accepted: " + policy.functions());
    }

    @Test
    void anUnreachableServerIsUnavailableWithoutNamingTheHost() {
        GuardException e = refused(props(), POLICY);
        assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(e.safeMessage()).doesNotContain("127.0.0.1").doesNotContain("jdbc:");
    }
}
