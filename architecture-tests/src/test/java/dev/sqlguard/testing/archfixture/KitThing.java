package dev.sqlguard.testing.archfixture;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Assertions;

import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.ports.EngineDialect;

/** Allowed: the testing kit using ports, core-domain, JUnit and AssertJ. */
public final class KitThing {
    public void check() {
        assertThat(EngineDialect.PLAIN.quote("id")).isPresent();
        Assertions.assertNotNull(GuardrailPolicy.defaults());
    }
}
