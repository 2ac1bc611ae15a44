package dev.sqlguard.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.duckdb.internal.DuckDbEngine;
import dev.sqlguard.duckdb.internal.DuckDbSettings;

/** Building the engine through its factory: defaults, checked configuration, one shared instance per file. */
class DuckDbEngineFactoryTest {
    @TempDir
    Path folder;
    @TempDir
    Path work;

    private final DuckDbEngineFactory factory = new DuckDbEngineFactory();

    private Path db() throws Exception {
        return TestDatabases.contractDatabase(folder);
    }

    private EngineConfig config(Map<String, String> properties) {
        return config(properties, GuardrailPolicy.defaults());
    }

    private static EngineConfig config(Map<String, String> properties, GuardrailPolicy policy) {
        return new EngineConfig("claims", properties, policy);
    }

    private void refused(Map<String, String> properties, String fragment) {
        assertThatThrownBy(() -> factory.create(config(properties), EngineContext.of(work)))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains(fragment).doesNotContain(folder.toString());
                });
    }

    @Test
    void isDiscoveredByNameThroughServiceLoader() {
        assertThat(ServiceLoader.load(EngineFactory.class).stream().map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("duckdb"))).hasSize(1).allSatisfy(f -> assertThat(f).isInstanceOf(DuckDbEngineFactory.class));
        assertThat(factory.propertyNames()).containsExactlyInAnyOrder("database", "tempDirectory", "maxTempSize");
    }

    @Test
    void defaultsComeFromThePolicyAndTheWorkDirectory() throws Exception {
        Path db = db();
        GuardrailPolicy policy = GuardrailPolicy.defaults().withLimits(Limits.defaults().withThreads(2).withMemoryBytes(300_000_000L));
        DuckDbSettings settings = DuckDbEngineFactory.settings(config(Map.of("database", db.toString()), policy), EngineContext.of(work));
        assertThat(settings.database()).isEqualTo(db.toRealPath());
        assertThat(settings.threads()).isEqualTo(2);
        assertThat(settings.memoryBytes()).isEqualTo(300_000_000L);
        assertThat(settings.maxTempSize()).contains(DuckDbEngineFactory.DEFAULT_MAX_TEMP_SIZE); // spilling is always bounded
        assertThat(settings.tempDirectory()).hasValueSatisfying(t -> {
            assertThat(t).startsWith(work.toAbsolutePath());
            assertThat(t.startsWith(folder)).isFalse();
        });
        assertThat(settings.connectionProperties()).containsEntry("duckdb.read_only", "true")
                .containsEntry("enable_external_access", "false").containsEntry("autoinstall_known_extensions", "false")
                .containsEntry("autoload_known_extensions", "false").containsEntry("lock_configuration", "true")
                .containsEntry("jdbc_stream_results", "true").containsEntry("threads", "2")
                .containsEntry("memory_limit", "300000000B");
        // the same file asks for the same folder every time, so engines over it can share the instance
        assertThat(DuckDbEngineFactory.settings(config(Map.of("database", db.toString()), policy), EngineContext.of(work)))
                .isEqualTo(settings);
    }

    @Test
    void badConfigurationIsRefusedWithTheNameOfTheProperty() throws Exception {
        Path db = db();
        refused(Map.of(), "'database'");
        refused(Map.of("database", folder.resolve("missing.duckdb").toString()), "'database'");
        refused(Map.of("database", folder.toString()), "'database'");
        refused(Map.of("database", db.toString(), "password", "x"), "unknown property 'password'");
        refused(Map.of("database", db.toString(), "maxTempSize", "lots"), "'maxTempSize'");
        refused(Map.of("database", db.toString(), "maxTempSize", "1GB", "tempDirectory", "disabled"), "'maxTempSize'");
        refused(Map.of("database", db.toString(), "tempDirectory", folder.resolve("spill").toString()), "outside the database's folder");
        refused(Map.of("database", db.toString(), "tempDirectory", folder.getParent().toString()), "outside the database's folder");
    }

    @Test
    void enginesOverOneFileShareOneInstanceWithTheSameSettings() throws Exception {
        Path db = db();
        Map<String, String> properties = Map.of("database", db.toString(), "maxTempSize", "512MB");
        try (DuckDbEngine a = (DuckDbEngine) factory.create(config(properties), EngineContext.of(work));
             DuckDbEngine b = (DuckDbEngine) factory.create(config(properties), EngineContext.of(work))) {
            assertThat(TestDatabases.query(a, "SELECT count(*) FROM claims").error()).isEmpty();
            b.close();
            assertThat(TestDatabases.query(a, "SELECT count(*) FROM claims").error()).isEmpty();
            GuardrailPolicy other = GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(100_000_000L));
            assertThatThrownBy(() -> factory.create(config(properties, other), EngineContext.of(work)))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        }
        // once every engine over the file is closed, it opens again with other limits
        GuardrailPolicy other = GuardrailPolicy.defaults().withLimits(Limits.defaults().withMemoryBytes(100_000_000L));
        try (DuckDbEngine c = (DuckDbEngine) factory.create(config(properties, other), EngineContext.of(work))) {
            assertThat(c.settings().memoryBytes()).isEqualTo(100_000_000L);
            assertThat(TestDatabases.query(c, "SELECT count(*) FROM claims").error()).isEmpty();
        }
    }

    @Test
    void aWriterInThisProcessKeepsTheEngineFromOpening() throws Exception {
        Path db = db();
        try (Connection writer = DriverManager.getConnection("jdbc:duckdb:" + db)) {
            assertThat(writer.isClosed()).isFalse();
            assertThatThrownBy(() -> factory.create(config(Map.of("database", db.toString())), EngineContext.of(work)))
                    .isInstanceOfSatisfying(GuardException.class, e -> {
                        assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                        assertThat(e.safeMessage()).doesNotContain(folder.toString());
                    });
        }
        try (DuckDbEngine engine = TestDatabases.engine(db, work, GuardrailPolicy.defaults())) {
            assertThat(TestDatabases.query(engine, "SELECT count(*) FROM users").rows().get(0).get(0)).isEqualTo(3L);
        }
    }

    @Test
    void anAllowlistNamingAMissingTableOrColumnIsRefused() throws Exception {
        Path db = db();
        Map<String, java.util.List<String>> tables = new HashMap<>();
        tables.put("nosuch", java.util.List.of("*"));
        GuardrailPolicy missingTable = GuardrailPolicy.defaults().withTables(dev.sqlguard.domain.TableAllowlist.of(tables));
        assertThatThrownBy(() -> factory.create(config(Map.of("database", db.toString()), missingTable), EngineContext.of(work)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        GuardrailPolicy missingColumn = GuardrailPolicy.defaults().withTables(dev.sqlguard.domain.TableAllowlist.of(
                Map.of("claims", java.util.List.of("id", "nosuch"))));
        assertThatThrownBy(() -> factory.create(config(Map.of("database", db.toString()), missingColumn), EngineContext.of(work)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
        assertThat(Files.exists(db)).isTrue();
    }

    @Test
    void configuredFunctionsAreCheckedAgainstDuckDbsCatalogAtStart() throws Exception {
        // as the host starts an engine: DuckDB reports what its catalog knows about the names, the domain decides
        Path db = db();
        Map<java.util.Set<String>, String> refused = Map.of(
                java.util.Set.of("count", "nosuchfunc"), "'nosuchfunc', which DuckDB does not know",
                java.util.Set.of("stdev_samp"), "Did you mean 'stddev_samp'?",
                java.util.Set.of("current_setting"), "which is never allowed on DuckDB",
                java.util.Set.of("sleep_ms"), "which is never allowed on DuckDB",
                java.util.Set.of("editdist3", "to_aggregate_state"), "no cost class");
        refused.forEach((functions, fragment) -> assertThatThrownBy(() -> dev.sqlguard.ports.EngineStart.open(factory, 
                config(Map.of("database", db.toString()), GuardrailPolicy.defaults().withFunctions(functions)), EngineContext.of(work)))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.getMessage()).contains(fragment);
                }));
        assertThatThrownBy(() -> dev.sqlguard.ports.EngineStart.open(factory, config(Map.of("database", db.toString()),
                GuardrailPolicy.defaults().withTableFunctions(java.util.Set.of("rnage"))), EngineContext.of(work)))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.getMessage()).contains("Did you mean 'range'"));
        try (DuckDbEngine engine = (DuckDbEngine) dev.sqlguard.ports.EngineStart.open(factory, config(Map.of("database", db.toString()),
                GuardrailPolicy.defaults().withFunctions(java.util.Set.of("count", "upper", "coalesce", "stddev_samp"))),
                EngineContext.of(work))) {
            assertThat(TestDatabases.query(engine, "SELECT upper(name) FROM users ORDER BY id").rows()).hasSize(3);
            assertThat(TestDatabases.query(engine, "SELECT lower(name) FROM users").error().orElseThrow().message())
                    .isEqualTo("The function 'lower' is not allowlisted.");
            assertThat(TestDatabases.query(engine, "SELECT uper(name) FROM users").error().orElseThrow().message())
                    .isEqualTo("The function 'uper' is not allowlisted. Did you mean 'upper'?");
        }
    }
}
