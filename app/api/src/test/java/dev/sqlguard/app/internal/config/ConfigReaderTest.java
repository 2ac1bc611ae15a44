package dev.sqlguard.app.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.sqlguard.app.ConfigException;
import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;
import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.app.internal.wiring.EngineRegistry;
import dev.sqlguard.app.internal.wiring.ModelRegistry;
import dev.sqlguard.app.internal.wiring.SecretMasker;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelPortFactory;

class ConfigReaderTest {
    /** An engine that accepts any property, like the defaults of the SPI. */
    static final class OpenFactory implements EngineFactory {
        private final String name;

        OpenFactory(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            throw new UnsupportedOperationException("not started in config tests");
        }
    }

    /** An engine with a required setting and a secret one, declared as property specs. */
    static final class SpecFactory implements EngineFactory {
        @Override
        public String name() {
            return "specs";
        }

        @Override
        public List<PropertySpec> properties() {
            return List.of(PropertySpec.required("database", "The database file."),
                    PropertySpec.optional("connection", "How to connect.").asSensitive());
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            throw new UnsupportedOperationException("not started in config tests");
        }
    }

    /** A model plug-in with declared settings, like the OpenAI-compatible adapter. */
    static final class FakeModelFactory implements ModelPortFactory {
        @Override
        public String name() {
            return "openai";
        }

        @Override
        public ModelPort create(Map<String, String> settings, Map<String, String> environment) {
            throw new UnsupportedOperationException("not started in config tests");
        }

        @Override
        public Set<String> propertyNames() {
            return Set.of("baseUrl", "model", "apiKey", "temperature", "requestTimeout");
        }
    }

    static final ModelRegistry MODELS = ModelRegistry.of(List.of(new FakeModelFactory()));

    static final EngineRegistry ENGINES = EngineRegistry.of(List.of(
            new OpenFactory("duckdb"), new OpenFactory("mysql"), new FakeEngineFactory("fake")));

    static final Map<String, String> ENV = Map.of("CRM_USER", "crm_reader", "CRM_PASSWORD", "pa55-w0rd-xyz",
            "HOST", "db.internal", "ROWS", "250");

    static SqlGuardConfig read(String yaml) {
        return read(yaml, ENV);
    }

    static SqlGuardConfig read(String yaml, Map<String, String> env) {
        return ConfigReader.read(new StringReader(yaml), "sqlguard.yaml", env::get, ENGINES, MODELS);
    }

    static final String ISSUE_EXAMPLE = """
            sources:
              claims:                        # the logical id the agent sees
                engine: duckdb
                database: data/claims.duckdb
                policy:                      # optional for duckdb; tables is required for mysql
                  tables:
                    claims: [id, region, amount, status, created]
                  functions: [count, sum, avg, min, max, round]
                  redact: [ssn]
                  limits: {rows: 1000, cellChars: 1000, bytes: 1048576, timeout: 10s, memory: 256MB, threads: 1}
              crm:
                engine: mysql
                url: jdbc:mysql://127.0.0.1:3306/crm
                username: ${CRM_USER}        # ${VAR} comes from the environment
                password: ${CRM_PASSWORD}
                requireReadOnlyAccount: false
                policy:
                  tables: {claims: [id, region, amount]}
            """;

    @Test
    void readsTheIssueExample() {
        SqlGuardConfig config = read(ISSUE_EXAMPLE);

        assertThat(config.sources().keySet()).containsExactly("claims", "crm");
        SourceConfig claims = config.sources().get("claims");
        assertThat(claims.engine()).isEqualTo("duckdb");
        assertThat(claims.properties()).containsExactly(Map.entry("database", "data/claims.duckdb"));
        GuardrailPolicy policy = claims.policy();
        assertThat(policy.tables().columnsOf(TableRef.of("claims"))).contains(Set.of("id", "region", "amount", "status", "created"));
        assertThat(policy.functions()).containsExactlyInAnyOrder("count", "sum", "avg", "min", "max", "round");
        assertThat(policy.redact()).containsExactly("ssn");
        assertThat(policy.limits()).isEqualTo(new Limits(1000, 1000, 1_048_576, Duration.ofSeconds(10), 256_000_000L, 1,
                Limits.DEFAULT_MAX_SQL_LENGTH));

        SourceConfig crm = config.sources().get("crm");
        assertThat(crm.properties()).containsEntry("url", "jdbc:mysql://127.0.0.1:3306/crm")
                .containsEntry("username", "crm_reader")
                .containsEntry("password", "pa55-w0rd-xyz")
                .containsEntry("requireReadOnlyAccount", "false");
        assertThat(crm.sensitiveProperties()).contains("password");
        assertThat(config.model()).isEmpty();
        assertThat(config.audit().file()).isEmpty();
    }

    @Test
    void secretsNeverAppearInToString() {
        SqlGuardConfig config = read(ISSUE_EXAMPLE);

        assertThat(config.toString()).doesNotContain("pa55-w0rd-xyz").contains("****");
        assertThat(config.sources().get("crm").maskedProperties()).containsEntry("password", "****");
        assertThat(SecretMasker.of(config).mask("login failed for pa55-w0rd-xyz")).isEqualTo("login failed for ****");
    }

    @Test
    void anEnvironmentVariableWithASensitiveNameMakesItsPropertySecret() {
        SqlGuardConfig config = read("""
                sources:
                  crm:
                    engine: mysql
                    url: jdbc:mysql://${HOST}:3306/crm?password=${CRM_PASSWORD}
                """);

        SourceConfig crm = config.sources().get("crm");
        assertThat(crm.properties().get("url")).isEqualTo("jdbc:mysql://db.internal:3306/crm?password=pa55-w0rd-xyz");
        assertThat(crm.sensitiveProperties()).containsExactly("url");
        assertThat(crm.toString()).doesNotContain("pa55-w0rd-xyz");
    }

    @Test
    void substitutesVariablesInsideTextAndNumbers() {
        SqlGuardConfig config = read("""
                sources:
                  s:
                    engine: duckdb
                    database: /data/$${HOST}/${HOST}.duckdb
                    policy:
                      limits: {rows: "${ROWS}"}
                """);

        assertThat(config.sources().get("s").properties().get("database")).isEqualTo("/data/${HOST}/db.internal.duckdb");
        assertThat(config.sources().get("s").policy().limits().maxRows()).isEqualTo(250);
    }

    @Test
    void aMissingEnvironmentVariableIsNamedWithItsKeyAndLine() {
        assertThatThrownBy(() -> read(ISSUE_EXAMPLE, Map.of("CRM_USER", "x")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("sqlguard.yaml, line 15, sources.crm.password: environment variable CRM_PASSWORD is not set.");
    }

    @Test
    void anUnknownTopLevelKeyGivesPathAndLine() {
        assertThatThrownBy(() -> read("""
                sources:
                  s: {engine: duckdb}
                sauces: {}
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessage("sqlguard.yaml, line 3, sauces: is not a known key; expected one of: audit, model, sources.");
    }

    @Test
    void anUnknownPolicyKeyGivesTheFullPathAndLine() {
        assertThatThrownBy(() -> read("""
                sources:
                  claims:
                    engine: duckdb
                    policy:
                      tables: {claims: [id]}
                      limits:
                        rows: 10
                        timeot: 5s
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("sqlguard.yaml, line 8, sources.claims.policy.limits.timeot: is not a known key;");
    }

    @Test
    void anEngineRefusesPropertiesItDoesNotKnow() {
        assertThatThrownBy(() -> read("""
                sources:
                  f:
                    engine: fake
                    pasword: hunter2-secret
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("sqlguard.yaml, line 4, sources.f.pasword: is not a setting of engine 'fake'; known: ")
                .message().doesNotContain("hunter2-secret");
    }

    @Test
    void sourceSettingsAreCheckedAgainstTheEnginesPropertySpecs() {
        EngineRegistry engines = EngineRegistry.of(List.of(new SpecFactory()));
        java.util.function.Function<String, SqlGuardConfig> read = yaml ->
                ConfigReader.read(new StringReader(yaml), "sqlguard.yaml", ENV::get, engines, MODELS);
        assertThatThrownBy(() -> read.apply("""
                sources:
                  s:
                    engine: specs
                    connection: tcp://user:hunter2-secret@db
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessage("sqlguard.yaml, line 3, sources.s.database: is missing; engine 'specs' needs it: The database file.");
        assertThatThrownBy(() -> read.apply("sources: {s: {engine: specs, database: x.db, colour: red}}\n"))
                .hasMessage("sqlguard.yaml, line 1, sources.s.colour: is not a setting of engine 'specs'; known: connection, database, "
                        + "engine, policy.");

        SqlGuardConfig config = read.apply("sources: {s: {engine: specs, database: x.db, connection: 'tcp://user:pw@db'}}\n");
        assertThat(config.sources().get("s").sensitiveProperties()).containsExactly("connection");
        assertThat(config.sources().get("s").toString()).doesNotContain("user:pw");
    }

    @Test
    void badValuesNameTheKeyAndLine() {
        assertThatThrownBy(() -> read(limits("timeout: soon"))).hasMessage(
                "sqlguard.yaml, line 5, sources.s.policy.limits.timeout: must be a positive duration such as 500ms, 10s or 1m.");
        assertThatThrownBy(() -> read(limits("memory: lots"))).hasMessage(
                "sqlguard.yaml, line 5, sources.s.policy.limits.memory: must be a positive size such as 1048576, 256MB or 1GiB.");
        assertThatThrownBy(() -> read(limits("rows: 0"))).hasMessage(
                "sqlguard.yaml, line 5, sources.s.policy.limits.rows: must be between 1 and 1000000.");
        assertThatThrownBy(() -> read(limits("threads: many"))).hasMessage(
                "sqlguard.yaml, line 5, sources.s.policy.limits.threads: must be a whole number.");
        assertThatThrownBy(() -> read(limits("rows: [1, 2]"))).hasMessage(
                "sqlguard.yaml, line 5, sources.s.policy.limits.rows: must be a single value, not a list.");
    }

    private static String limits(String line) {
        return "sources:\n  s:\n    engine: duckdb\n    policy:\n      limits: {" + line + "}\n";
    }

    @Test
    void readsEveryLimitUnit() {
        Limits limits = read(limits("rows: 5, cellChars: 80, bytes: 64KiB, timeout: 500ms, memory: 1GiB, threads: 2, maxSqlLength: 4000"))
                .sources().get("s").policy().limits();

        assertThat(limits).isEqualTo(new Limits(5, 80, 65_536, Duration.ofMillis(500), 1L << 30, 2, 4000));
    }

    @Test
    void anUnknownEngineListsTheEnginesFound() {
        assertThatThrownBy(() -> read("""
                sources:
                  s:
                    engine: postgres
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessage("sqlguard.yaml, line 3, sources.s.engine: unknown engine 'postgres'; engines found: duckdb, fake, mysql.");
    }

    @Test
    void structuralErrorsAreExplained() {
        assertThatThrownBy(() -> read("model: {baseUrl: http://x, model: m}\n"))
                .hasMessage("sqlguard.yaml, line 1, sources: is missing; list at least one data source.");
        assertThatThrownBy(() -> read("sources:\n  s:\n    database: x.duckdb\n"))
                .hasMessage("sqlguard.yaml, line 3, sources.s.engine: is missing; name the engine, e.g. duckdb or mysql.");
        assertThatThrownBy(() -> read("sources:\n  s:\n    engine: duckdb\n    policy:\n      tables: {}\n"))
                .hasMessageStartingWith("sqlguard.yaml, line 5, sources.s.policy.tables: lists no table");
        assertThatThrownBy(() -> read("sources:\n  s:\n    engine: duckdb\n    policy:\n      tables: {claims: id}\n"))
                .hasMessageStartingWith("sqlguard.yaml, line 5, sources.s.policy.tables.claims: must be a list of column names");
        assertThatThrownBy(() -> read("sources:\n  bad id!:\n    engine: duckdb\n"))
                .hasMessageStartingWith("sqlguard.yaml, line 3, sources.bad id!: is not a valid source id");
        assertThatThrownBy(() -> read("sources:\n  s:\n    engine: duckdb\n    database: a\n    database: b\n"))
                .hasMessage("sqlguard.yaml: line 5: the key 'database' appears twice.");
        assertThatThrownBy(() -> read(""))
                .hasMessage("sqlguard.yaml: the file is empty; it needs a 'sources' section.");
    }

    @Test
    void aYamlSyntaxErrorGivesTheLineButNeverQuotesTheFile() {
        assertThatThrownBy(() -> read("""
                sources:
                  crm:
                    engine: mysql
                    password: "s3cr3t-value
                """))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("sqlguard.yaml: invalid YAML syntax at line ")
                .message().doesNotContain("s3cr3t");
    }

    @Test
    void aBareStarIsExplainedWithoutQuotingTheFile() {
        for (String tables : new String[] {"claims: *", "{claims: *}", "claims: [*]"}) {
            assertThatThrownBy(() -> read("sources:\n  s:\n    engine: duckdb\n    policy:\n      tables:\n        "
                    .replace("tables:\n        ", tables.startsWith("{") ? "tables: " : "tables:\n        ") + tables + "\n"))
                    .as(tables)
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("sqlguard.yaml: invalid YAML syntax at line ")
                    .hasMessageEndingWith("A bare * (or &) starts a YAML alias; for every column, quote it: \"*\".")
                    .message().doesNotContain("claims");
        }
    }

    @Test
    void anUnknownEngineSuggestsTheNameItMayMean() {
        assertThatThrownBy(() -> read("sources:\n  s:\n    engine: duckbd\n"))
                .hasMessage("sqlguard.yaml, line 3, sources.s.engine: unknown engine 'duckbd'; did you mean 'duckdb'?"
                        + " engines found: duckdb, fake, mysql.");
        assertThatThrownBy(() -> read("sources:\n  s:\n    engine: mariadb\n"))
                .hasMessage("sqlguard.yaml, line 3, sources.s.engine: unknown engine 'mariadb'; did you mean 'mysql'?"
                        + " engines found: duckdb, fake, mysql.");
    }

    @Test
    void tablesAcceptAStarForEveryColumnAndADefaultSchema() {
        GuardrailPolicy policy = read("""
                sources:
                  s:
                    engine: duckdb
                    policy:
                      defaultSchema: main
                      tables:
                        claims: "*"
                        sales.orders: [id, total]
                      tableFunctions: [range]
                """).sources().get("s").policy();

        assertThat(policy.defaultSchema()).contains("main");
        assertThat(policy.tables().allowsColumn(TableRef.of("claims"), "anything")).isTrue();
        assertThat(policy.tables().allowsColumn(TableRef.of("sales", "orders"), "total")).isTrue();
        assertThat(policy.tables().allowsColumn(TableRef.of("sales", "orders"), "secret")).isFalse();
        assertThat(policy.tableFunctions()).containsExactly("range");
    }

    @Test
    void engineValuesKeepTheTextAsWrittenNotYamlsReading() {
        SqlGuardConfig config = read("""
                sources:
                  a: {engine: duckdb, password: no, pin: 0123, hex: 0x1F, exp: 1e3, flag: on, float: 1.50}
                """);

        assertThat(config.sources().get("a").properties()).containsEntry("password", "no").containsEntry("pin", "0123")
                .containsEntry("hex", "0x1F").containsEntry("exp", "1e3").containsEntry("flag", "on")
                .containsEntry("float", "1.50");
        assertThatThrownBy(() -> read("sources: {a: {engine: duckdb, password: }}\n"))
                .hasMessage("sqlguard.yaml, line 1, sources.a.password: must be a single value, not empty.");
    }

    @Test
    void noPolicyMeansTheDefaults() {
        assertThat(read("sources: {s: {engine: duckdb}}").sources().get("s").policy()).isEqualTo(GuardrailPolicy.defaults());
    }

    @Test
    void readsAndChecksTheModelAndAuditSections() {
        SqlGuardConfig config = read("""
                sources: {s: {engine: duckdb}}
                model:
                  baseUrl: https://llm.example/v1
                  model: small-model
                  apiKey: ${CRM_PASSWORD}
                  temperature: 0
                audit:
                  file: logs/audit.jsonl
                """);

        SqlGuardConfig.ModelConfig model = config.model().orElseThrow();
        assertThat(model.provider()).isEqualTo("openai");
        assertThat(model.apiKey()).contains("pa55-w0rd-xyz");
        assertThat(model.baseUrl()).contains(java.net.URI.create("https://llm.example/v1"));
        assertThat(model.settings()).containsEntry("temperature", "0");
        assertThat(model.sensitiveSettings()).containsExactly("apiKey");
        assertThat(config.toString()).doesNotContain("pa55-w0rd-xyz");
        assertThat(SecretMasker.of(config).mask("key pa55-w0rd-xyz")).isEqualTo("key ****");
        assertThat(config.audit().file()).contains(java.nio.file.Path.of("logs/audit.jsonl"));

        assertThatThrownBy(() -> read("sources: {s: {engine: duckdb}}\nmodel:\n  model: m\n  baseUrl: 'ftp://x'\n"))
                .hasMessage("sqlguard.yaml, line 4, model.baseUrl: is invalid: baseUrl must be an http or https URL.");
        assertThatThrownBy(() -> read("sources: {s: {engine: duckdb}}\nmodel:\n  baseUrl: 'http://x'\n  topP: 2\n"))
                .hasMessage("sqlguard.yaml, line 4, model.topP: is not a known key; expected one of: "
                        + "apiKey, baseUrl, model, provider, requestTimeout, temperature.");
        assertThatThrownBy(() -> read("sources: {s: {engine: duckdb}}\nmodel: {provider: claude, model: m}\n"))
                .hasMessage("sqlguard.yaml, line 2, model.provider: unknown model provider 'claude'; providers found: openai.");
        assertThatThrownBy(() -> read("sources: {s: {engine: duckdb}}\naudit: {file: ''}\n"))
                .hasMessage("sqlguard.yaml, line 2, audit.file: is blank.");
    }

    @Test
    void withoutAModelPluginTheModelSectionTakesTheBasicSettings() {
        SqlGuardConfig config = ConfigReader.read(new StringReader("sources: {s: {engine: duckdb}}\nmodel: {model: m, apiKey: k-123456}\n"),
                "sqlguard.yaml", ENV::get, ENGINES, ModelRegistry.of(List.of()));

        assertThat(config.model().orElseThrow().provider()).isEqualTo("openai");
        assertThat(config.model().orElseThrow().toString()).doesNotContain("k-123456");
        assertThatThrownBy(() -> ConfigReader.read(new StringReader("sources: {s: {engine: duckdb}}\nmodel: {temperature: 1}\n"),
                "sqlguard.yaml", ENV::get, ENGINES, ModelRegistry.of(List.of())))
                .hasMessageStartingWith("sqlguard.yaml, line 2, model.temperature: is not a known key");
    }

    @Test
    void aConfigFileThatDoesNotExistIsAClearError(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        assertThatThrownBy(() -> ConfigReader.read(dir.resolve("nope.yaml"), ENV::get, ENGINES, MODELS))
                .isInstanceOf(ConfigException.class)
                .hasMessageEndingWith("nope.yaml: the configuration file does not exist.");
    }
}
