package dev.sqlguard.ports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionClasses;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SourceBinding;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.StatementValidator;

class ComposedEngineTest {
    private static final GuardrailPolicy POLICY = GuardrailPolicy.defaults();
    private static final StatementValidator VALIDATOR = request -> {
        throw new GuardException(ErrorCode.SYNTAX_ERROR);
    };
    private static final ExecutionPort EXECUTION = plan -> {
        throw new GuardException(ErrorCode.QUERY_FAILED);
    };
    private static final CatalogView CATALOG = List::of;

    @Test
    void answersWithItsPartsAndBindsThemForTheDomain() {
        EngineParts parts = new EngineParts("sales", POLICY, VALIDATOR, EXECUTION, CATALOG, Set.of(EngineCapability.JOINS));
        try (Engine engine = new ComposedEngine(parts, new EngineResources())) {
            assertThat(engine.sourceId()).isEqualTo("sales");
            assertThat(engine.policy()).isSameAs(POLICY);
            assertThat(engine.validator()).isSameAs(VALIDATOR);
            assertThat(engine.execution()).isSameAs(EXECUTION);
            assertThat(engine.catalog()).isSameAs(CATALOG);
            assertThat(engine.capabilities()).containsExactly(EngineCapability.JOINS);
            assertThat(engine.binding().id()).isEqualTo("sales");
            assertThat(engine.binding().validator()).isSameAs(VALIDATOR);
            assertThat(engine.binding().execution()).isSameAs(EXECUTION);
            assertThat(engine).hasToString("ComposedEngine[sales]");
        }
    }

    @Test
    void theBindingCarriesTheConfiguredPolicyWithTheEnginesDefaultsNotTheEnginesPolicy() {
        FunctionClasses classes = new FunctionClasses(Set.of("upper"), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(),
                FunctionClasses.NeverWording.NOT_ALLOWLISTED);
        GuardrailPolicy wider = POLICY.withFunctions(Set.of("upper", "lower"));
        EngineParts parts = new EngineParts("sales", wider, VALIDATOR, EXECUTION, CATALOG, Set.of(), EngineDefaults.of(classes));
        try (Engine engine = new ComposedEngine(parts, new EngineResources())) {
            GuardrailPolicy configured = POLICY.withFunctions(Set.of("upper"));
            SourceBinding binding = engine.binding(configured);
            assertThat(binding.policy()).isEqualTo(configured.effective(EngineDefaults.of(classes)));
            assertThat(binding.policy().allowsFunction("lower")).isFalse();
            assertThat(engine.binding(configured)).isSameAs(binding);
            assertThat(engine.binding(POLICY).policy().allowsFunction("upper")).isTrue();
            assertThat(engine.defaults()).isEqualTo(EngineDefaults.of(classes));
        }
    }

    @Test
    void closingClosesItsResourcesOnce() {
        AtomicInteger closed = new AtomicInteger();
        EngineResources resources = new EngineResources();
        resources.add(closed::incrementAndGet);
        Engine engine = new ComposedEngine(new EngineParts("s", POLICY, VALIDATOR, EXECUTION, CATALOG, Set.of()), resources);

        engine.close();
        engine.close();

        assertThat(closed).hasValue(1);
    }

    @Test
    void partsAreCheckedAndTheirCapabilitiesKeptInTheEnumsOrder() {
        EngineParts parts = new EngineParts("s", POLICY, VALIDATOR, EXECUTION, CATALOG,
                Set.of(EngineCapability.WILDCARD, EngineCapability.GROUP_BY, EngineCapability.CTES));
        assertThat(parts.capabilities()).containsExactly(EngineCapability.GROUP_BY, EngineCapability.CTES, EngineCapability.WILDCARD);
        assertThatThrownBy(() -> parts.capabilities().add(EngineCapability.JOINS)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> new EngineParts(null, POLICY, VALIDATOR, EXECUTION, CATALOG, Set.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("sourceId is null");
        assertThatThrownBy(() -> new EngineParts("s", POLICY, VALIDATOR, null, CATALOG, Set.of()))
                .isInstanceOf(NullPointerException.class).hasMessage("execution is null");
        assertThatThrownBy(() -> new EngineParts("s", POLICY, VALIDATOR, EXECUTION, CATALOG, null))
                .isInstanceOf(NullPointerException.class).hasMessage("capabilities is null");
    }

    @Test
    void allCapabilitiesAreEveryValueInOrder() {
        assertThat(EngineCapability.all()).containsExactly(EngineCapability.values())
                .isEqualTo(EnumSet.allOf(EngineCapability.class));
        assertThatThrownBy(() -> EngineCapability.all().remove(EngineCapability.JOINS)).isInstanceOf(UnsupportedOperationException.class);
    }

    /** An adapter's engine type that adds a method of its own keeps what the host calls. */
    @Test
    void aSubclassAddsMethodsOnly() {
        final class Counting extends ComposedEngine {
            Counting() {
                super(new EngineParts("c", POLICY, VALIDATOR, EXECUTION, CATALOG, EngineCapability.all()), new EngineResources());
            }

            int plans() {
                return 0;
            }
        }
        Counting engine = new Counting();
        assertThat(engine.plans()).isZero();
        assertThat(engine.capabilities()).hasSize(EngineCapability.values().length);
        assertThat(engine).hasToString("Counting[c]");
    }
}
