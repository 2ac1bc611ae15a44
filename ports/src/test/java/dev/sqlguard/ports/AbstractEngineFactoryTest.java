package dev.sqlguard.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class AbstractEngineFactoryTest {
    private static final List<PropertySpec> SPECS = List.of(
            PropertySpec.required("url", "Where the server is."),
            PropertySpec.optional("password", "The account's password.").asSensitive());
    private static final EngineDialect DIALECT = new EngineDialect("Example", Optional.of('"'), Optional.empty(), List.of());

    static final class Example extends AbstractEngineFactory {
        Example(String name, List<PropertySpec> properties) {
            super(name, properties, DIALECT);
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            throw new UnsupportedOperationException("not started in this test");
        }
    }

    @Test
    void declaresItsNameSettingsAndDialect() {
        EngineFactory factory = new Example("example", SPECS);
        assertThat(factory.name()).isEqualTo("example");
        assertThat(factory.properties()).isEqualTo(SPECS);
        assertThat(factory.dialect()).isSameAs(DIALECT);
        assertThat(factory.propertyNames()).containsExactlyInAnyOrder("url", "password");
        assertThat(factory.sensitivePropertyNames()).isEqualTo(Set.of("password"));
        assertThat(factory).hasToString("Example[example]");
    }

    @Test
    void refusesABlankNameAndASettingDeclaredTwice() {
        assertThatThrownBy(() -> new Example(" ", SPECS)).isInstanceOf(IllegalArgumentException.class).hasMessage("name is blank");
        assertThatThrownBy(() -> new Example("example", List.of(SPECS.get(0), SPECS.get(0))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("the setting url is declared twice");
        assertThatThrownBy(() -> new Example(null, SPECS)).isInstanceOf(NullPointerException.class).hasMessage("name is null");
    }
}
