package dev.sqlguard.app.internal.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.ports.EngineFactory;

class EngineRegistryTest {
    @Test
    void discoversEnginesAndSkipsAPluginWhoseClassIsMissing() {
        List<String> warnings = new ArrayList<>();
        EngineRegistry registry = EngineRegistry.discover(getClass().getClassLoader(), warnings::add);

        assertThat(registry.find("fake")).isPresent();
        assertThat(warnings).anySatisfy(w -> assertThat(w).contains("skipping a EngineFactory plug-in that failed to load"));
    }

    @Test
    void aDuplicateNameIsAnError() {
        assertThatThrownBy(() -> EngineRegistry.of(List.of(new FakeEngineFactory("x"), new FakeEngineFactory("x"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Two engine plug-ins are named 'x'");
    }

    @Test
    void anUnknownNameListsTheEnginesFound() {
        EngineRegistry registry = EngineRegistry.of(List.<EngineFactory>of(new FakeEngineFactory("b"), new FakeEngineFactory("a")));

        assertThatThrownBy(() -> registry.require("c", ""))
                .hasMessage("unknown engine 'c'; engines found: a, b.");
        assertThatThrownBy(() -> EngineRegistry.of(List.of()).require("duckdb", "x: "))
                .hasMessage("x: unknown engine 'duckdb'; engines found: none.");
        assertThat(registry.require("a", "").name()).isEqualTo("a");
    }

    @Test
    void anUnknownNameSuggestsTheEngineAnotherToolWouldNameSoOrAClosedOne() {
        EngineRegistry registry = EngineRegistry.of(List.<EngineFactory>of(new FakeEngineFactory("postgresql"),
                new FakeEngineFactory("mysql"), new FakeEngineFactory("duckdb")));

        assertThatThrownBy(() -> registry.require("postgres", ""))
                .hasMessage("unknown engine 'postgres'; did you mean 'postgresql'? engines found: duckdb, mysql, postgresql.");
        assertThatThrownBy(() -> registry.require("pg", ""))
                .hasMessage("unknown engine 'pg'; did you mean 'postgresql'? engines found: duckdb, mysql, postgresql.");
        assertThatThrownBy(() -> registry.require("mysq", ""))
                .hasMessageStartingWith("unknown engine 'mysq'; did you mean 'mysql'?");
        assertThatThrownBy(() -> registry.require("oracle", ""))
                .hasMessage("unknown engine 'oracle'; engines found: duckdb, mysql, postgresql.");
    }
}
