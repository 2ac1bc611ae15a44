package dev.sqlguard.ports;

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

class PropertySpecsTest {
    static final List<PropertySpec> SPECS = List.of(
            PropertySpec.required("url", "Where the server is."),
            PropertySpec.optional("password", "The account's password.").asSensitive(),
            PropertySpec.optional("poolSize", "4", "Connections in the pool."));

    /** A factory that is only a name and declarations; the subclasses below override what they declare. */
    abstract static class Stub implements EngineFactory {
        @Override
        public String name() {
            return getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            throw new UnsupportedOperationException();
        }
    }

    /** Declares its settings with specs. */
    static final class Declaring extends Stub {
        @Override
        public List<PropertySpec> properties() {
            return SPECS;
        }
    }

    /** Written before specs: bare name sets. */
    static final class NamesOnly extends Stub {
        @Override
        public Set<String> propertyNames() {
            return Set.of("host", "secretKey", "pin");
        }

        @Override
        public Set<String> sensitivePropertyNames() {
            return Set.of("pin");
        }
    }

    /** Declares nothing. */
    static final class Open extends Stub {
    }

    @Test
    void aSpecChecksItself() {
        PropertySpec url = PropertySpec.required("url", "Where the server is.");
        assertThat(url.required()).isTrue();
        assertThat(url.defaultValue()).isEmpty();
        assertThat(url.sensitive()).isFalse();
        assertThat(PropertySpec.optional("poolSize", "4", "Connections.").defaultValue()).contains("4");
        assertThat(url.asSensitive().sensitive()).isTrue();
        assertThatThrownBy(() -> new PropertySpec("url", true, Optional.of("x"), false, "d")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PropertySpec.required(" url", "d")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PropertySpec.required("url", " ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PropertySpecs.of(List.of(url, url))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declared twice");
    }

    @Test
    void declaredSpecsAcceptTheirKeysAndFindMissingRequiredOnes() {
        PropertySpecs specs = PropertySpecs.of(new Declaring());
        assertThat(specs.declared()).isTrue();
        assertThat(specs.accepts("url")).isTrue();
        assertThat(specs.accepts("colour")).isFalse();
        assertThat(specs.firstUnknown(Set.of("url", "zeta", "colour"))).contains("colour");
        assertThat(specs.missing(Set.of("password"))).extracting(PropertySpec::name).containsExactly("url");
        assertThat(specs.missing(Set.of("url"))).isEmpty();
        assertThat(specs.names()).containsExactly("password", "poolSize", "url");
        assertThat(specs.find("poolSize").flatMap(PropertySpec::defaultValue)).contains("4");
    }

    @Test
    void secretsAreTheDeclaredOnesAndKeysThatLookLikeSecrets() {
        PropertySpecs specs = PropertySpecs.of(new Declaring());
        assertThat(specs.isSensitive("password")).isTrue();
        assertThat(specs.isSensitive("url")).isFalse();
        assertThat(specs.isSensitive("apiToken")).as("an undeclared key that looks like a secret").isTrue();

        PropertySpecs legacy = PropertySpecs.of(new NamesOnly());
        assertThat(legacy.isSensitive("pin")).isTrue();
        assertThat(legacy.isSensitive("secretKey")).isTrue();
        assertThat(legacy.isSensitive("host")).isFalse();
    }

    @Test
    void theOldNameSetsAreDerivedFromTheSpecsAndStillHonoured() {
        EngineFactory declaring = new Declaring();
        assertThat(declaring.propertyNames()).containsExactlyInAnyOrder("url", "password", "poolSize");
        assertThat(declaring.sensitivePropertyNames()).containsExactly("password");

        PropertySpecs legacy = PropertySpecs.of(new NamesOnly());
        assertThat(legacy.declared()).isTrue();
        assertThat(legacy.accepts("host")).isTrue();
        assertThat(legacy.accepts("port")).isFalse();
        assertThat(legacy.missing(Set.of())).isEmpty();

        EngineFactory open = new Open();
        assertThat(open.propertyNames()).isEmpty();
        assertThat(open.sensitivePropertyNames()).containsExactly("password");
        PropertySpecs anything = PropertySpecs.of(open);
        assertThat(anything.declared()).isFalse();
        assertThat(anything.accepts("whatever")).isTrue();
        assertThat(anything.isSensitive("password")).isTrue();
        assertThat(open.dialect()).isEqualTo(EngineDialect.PLAIN);
    }

    @Test
    void engineConfigChecksKeysWithTheSameSpecs() {
        EngineConfig good = config(Map.of("url", "jdbc:x://h", "poolSize", "8"));
        good.check(SPECS);

        assertThatThrownBy(() -> config(Map.of("url", "u", "colour", "red")).check(SPECS))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR))
                .hasMessage("Source 's': unknown property 'colour'; known: [password, poolSize, url].");
        assertThatThrownBy(() -> config(Map.of("password", "pw")).check(SPECS))
                .hasMessage("Source 's' needs the property 'url'.");
        assertThatThrownBy(() -> config(Map.of("url", " ")).check(SPECS))
                .hasMessage("Source 's' needs the property 'url'.");
        assertThatThrownBy(() -> config(Map.of("url", "u")).check(List.of()))
                .as("an explicit empty list allows no key").hasMessageContaining("unknown property 'url'");
        assertThatThrownBy(() -> config(Map.of("url", "u", "z", "1")).requireKnown(Set.of("url")))
                .hasMessageContaining("unknown property 'z'");
    }

    @Test
    void anEngineContextIsAnInterfaceWithDefaults() {
        EngineContext context = () -> java.nio.file.Path.of("work");
        assertThat(context.clock()).isNotNull();
        assertThat(EngineContext.of(java.nio.file.Path.of("w")).workDirectory()).isEqualTo(java.nio.file.Path.of("w"));
    }

    private static EngineConfig config(Map<String, String> properties) {
        return new EngineConfig("s", properties, GuardrailPolicy.defaults());
    }
}
