package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.app.fake.FakeGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.domain.port.AuditSink;
import dev.sqlguard.ports.EngineDialect;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.ports.TableDescription;

class SqlGuardTest {
    private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

    private SqlGuard guard() {
        return FakeGuard.twoSources(events::add);
    }

    @Test
    void queriesChecksAndDescribes() {
        try (SqlGuard guard = guard()) {
            assertThat(guard.sources()).containsExactly("claims", "other");

            ToolResult ok = guard.query("claims", "SELECT n FROM t");
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);
            assertThat(ok.returnedCount()).isEqualTo(2);

            ToolResult checked = guard.check("claims", "SELECT ? FROM t", List.of(5));
            assertThat(checked.status()).isEqualTo(ToolStatus.OK);
            assertThat(checked.rows()).isEmpty();

            ToolResult rejected = guard.query("claims", "UPDATE t SET x = 1");
            assertThat(rejected.status()).isEqualTo(ToolStatus.REJECTED);

            List<TableDescription> tables = guard.describe("claims");
            assertThat(tables).hasSize(1);
            assertThat(tables.get(0).columns()).extracting(TableDescription.ColumnDescription::name).containsExactly("id", "region");

            assertThat(SqlGuard.toJson(ok)).startsWith("{\"id\":\"" + ok.id() + "\",\"status\":\"OK\"");
        }
        assertThat(events).extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK, ToolStatus.OK, ToolStatus.REJECTED);
    }

    /**
     * Issue 28: the audit writes of one call through the embedding API, its guarded path (what the
     * agent and MCP tools use) and a caller handle are the same as an MCP tools/call's
     * ({@code McpStdioServerTest.oneToolsCallWritesItsAuditEventAndTheStartOfAStatementThatRuns}):
     * a query that runs writes its start before it runs and its audit event, any other call its
     * audit event only. It made three writes (a COMPLETED or ERROR lifecycle record too).
     */
    @Test
    void aCallMakesTheSameAuditWritesAsAnMcpToolsCall() {
        List<String> writes = Collections.synchronizedList(new ArrayList<>());
        AuditSink counting = new AuditSink() {
            @Override
            public void audit(AuditEvent event) {
                writes.add("audit " + event.verdict());
            }

            @Override
            public void lifecycle(dev.sqlguard.domain.port.LifecycleRecord record) {
                writes.add("lifecycle " + record.phase());
            }
        };
        try (SqlGuard guard = FakeGuard.twoSources(counting)) {
            guard.query("claims", "SELECT n FROM t");
            assertThat(writes).containsExactly("lifecycle STARTED", "audit OK");
            writes.clear();
            guard.query("claims", "SELECT fail FROM t");
            assertThat(writes).containsExactly("lifecycle STARTED", "audit ERROR");
            writes.clear();
            guard.query("claims", "UPDATE t SET x = 1");
            assertThat(writes).containsExactly("audit REJECTED");
            writes.clear();
            guard.check("claims", "SELECT n FROM t");
            assertThat(writes).containsExactly("audit OK");
            writes.clear();
            guard.query("nowhere", "SELECT 1");
            assertThat(writes).containsExactly("audit REJECTED");
            writes.clear();

            GuardedPath path = guard.guardedPath(List.of("claims"));
            path.calls().query(path.sources().get(0).engine(), QueryRequest.of("claims", "SELECT n FROM t"));
            assertThat(writes).as("the guarded path").containsExactly("lifecycle STARTED", "audit OK");
            writes.clear();
            guard.withAttributes(Map.of()).query("claims", "SELECT n FROM t");
            assertThat(writes).as("a caller handle").containsExactly("lifecycle STARTED", "audit OK");
        }
    }

    @Test
    void theGuardedPathRunsOnTheFacadesAuditSink() {
        try (SqlGuard guard = guard()) {
            GuardedPath path = guard.guardedPath(List.of("claims", "other"));
            assertThat(path.sources()).extracting(s -> s.engine().sourceId()).containsExactly("claims", "other");
            assertThat(path.sources()).extracting(GuardedPath.Source::engineName).containsExactly("fake", "fake");
            assertThat(path.sources()).extracting(GuardedPath.Source::dialect).as("the fake engine declares no dialect")
                    .containsOnly(EngineDialect.PLAIN);

            GuardedPath.Source claims = path.sources().get(0);
            ToolResult ok = path.calls().query(claims.engine(), QueryRequest.of("claims", "SELECT n FROM t"));
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);

            assertThatThrownBy(() -> guard.guardedPath(List.of("nowhere")))
                    .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE));
            assertThatThrownBy(() -> guard.guardedPath(List.of())).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(events).as("statements on the guarded path reach the facade's audit sink")
                .extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK);
    }

    @Test
    void aGuardedPathUsedAfterCloseOpensNoEngine() {
        GuardedPath path;
        try (SqlGuard guard = guard()) {
            path = guard.guardedPath(List.of("claims"));
        }
        int created = dev.sqlguard.app.fake.FakeEngineFactory.CREATED.get();
        // an engine opened after close() would also get a working folder that nothing removes any more
        assertThatThrownBy(() -> path.sources().get(0).engine().binding())
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE));
        assertThat(dev.sqlguard.app.fake.FakeEngineFactory.CREATED.get()).isEqualTo(created);
    }

    @Test
    void anEnginePluggedInByHandIsUsedWithoutDiscovery() {
        try (SqlGuard guard = SqlGuard.builder()
                .engine(new FakeEngineFactory("handmade"))
                .source("s", "handmade", Map.of("rows", "1"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            assertThat(guard.query("s", "SELECT n FROM t").returnedCount()).isEqualTo(1);
        }
        try (SqlGuard guard = SqlGuard.builder()
                .engines(List.of())
                .engine(new FakeEngineFactory("handmade"))
                .source("s", "handmade", Map.of(), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.OK);
        }
        assertThatThrownBy(() -> SqlGuard.builder().engines(List.of())
                .source("s", "fake", Map.of(), GuardrailPolicy.defaults()).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown engine 'fake'; engines found: none");
    }

    @Test
    void anEnginePluggedInByHandMustNotReuseADiscoveredName() {
        assertThatThrownBy(() -> SqlGuard.builder()
                .engine(new FakeEngineFactory("fake"))
                .source("s", "fake", Map.of(), GuardrailPolicy.defaults())
                .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("The engine 'fake' added to the builder")
                .hasMessageContaining("has the name of an engine found on the class path");
        assertThatThrownBy(() -> SqlGuard.builder()
                .engines(List.of())
                .engine(new FakeEngineFactory("twice"))
                .engine(new FakeEngineFactory("twice"))
                .source("s", "twice", Map.of(), GuardrailPolicy.defaults())
                .build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("Two engine plug-ins are named 'twice'");
    }

    @Test
    void badRequestsBecomeResultsNotExceptions() {
        try (SqlGuard guard = guard()) {
            ToolResult unknown = guard.query("nope", "SELECT 1");
            assertThat(unknown.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(unknown.error().orElseThrow().code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE);
            assertThat(unknown.error().orElseThrow().message()).contains("claims, other");

            ToolResult badParam = guard.query("claims", "SELECT ?", List.of(new Object()));
            assertThat(badParam.error().orElseThrow().code()).isEqualTo(ErrorCode.UNSUPPORTED_PARAMETER);

            assertThatThrownBy(() -> guard.describe("nope")).isInstanceOf(GuardException.class)
                    .extracting(e -> ((GuardException) e).code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE);

            ToolResult noSql = guard.query("claims", null, List.of());
            assertThat(noSql.status()).isEqualTo(ToolStatus.REJECTED);
            assertThat(noSql.error().orElseThrow().code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            ToolResult noSource = guard.query(null, "SELECT 1", List.of());
            assertThat(noSource.error().orElseThrow().code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE);
            ToolResult noParams = guard.check("claims", "SELECT 1", null);
            assertThat(noParams.error().orElseThrow().code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);
            ToolResult nullParam = guard.query("claims", "SELECT ? AS params", java.util.Arrays.asList((Object) null));
            assertThat(nullParam.status()).as("a SQL NULL parameter is a value, not a bad request").isEqualTo(ToolStatus.OK);
            assertThat(guard.query((QueryRequest) null).error().orElseThrow().code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE);
            assertThat(guard.check((QueryRequest) null).status()).isEqualTo(ToolStatus.REJECTED);
            assertThatThrownBy(() -> guard.describe(null)).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_SOURCE));
        }
        assertThat(events).hasSize(8);
    }

    @Test
    void anEngineThatCannotStartGivesAnErrorResultAndIsRetriedLater() {
        try (SqlGuard guard = SqlGuard.builder()
                .source("down", "fake", Map.of("mode", "unavailable"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            ToolResult result = guard.query("down", "SELECT 1");
            assertThat(result.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(guard.query("down", "SELECT 1").status()).isEqualTo(ToolStatus.ERROR);
        }
        assertThat(events).hasSize(2).allSatisfy(e -> assertThat(e.code()).contains(ErrorCode.ENGINE_UNAVAILABLE));
    }

    @Test
    @Timeout(30)
    void aSourceThatComesBackIsServedAgainWithoutACall() throws Exception {
        FakeEngineFactory.DOWN.add("back");
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("mode", "switch:back"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            SourceStatus down = guard.start("s");
            assertThat(down.available()).isFalse();
            assertThat(down.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(down.error().orElseThrow().retryable()).isTrue();
            assertThat(guard.status()).containsExactly(down);

            ToolResult failed = guard.query("s", "SELECT n FROM t");
            assertThat(failed.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(failed.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(failed.error().orElseThrow().retryable()).isTrue();

            FakeEngineFactory.DOWN.remove("back");
            while (!guard.status().get(0).available()) { // the background retry opens it, no call needed
                Thread.sleep(20);
            }
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.OK);
        } finally {
            FakeEngineFactory.DOWN.remove("back");
        }
    }

    @Test
    void aCallNamingADownSourceTriesToOpenItAtOnce() {
        FakeEngineFactory.DOWN.add("ondemand");
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("mode", "switch:ondemand"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.ERROR);
            FakeEngineFactory.DOWN.remove("ondemand");
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.OK);
        } finally {
            FakeEngineFactory.DOWN.remove("ondemand");
        }
    }

    @Test
    void theGuardedPathKeepsASourceThatIsDownAndServesItOnceBack() {
        FakeEngineFactory.DOWN.add("path");
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("mode", "switch:path"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            GuardedPath path = guard.guardedPath(List.of("s"));
            GuardedPath.Source source = path.sources().get(0);
            assertThat(source.engine().sourceId()).isEqualTo("s");
            assertThatThrownBy(() -> source.engine().binding()).isInstanceOfSatisfying(GuardException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE));
            FakeEngineFactory.DOWN.remove("path");
            ToolResult ok = path.calls().query(source.engine(), QueryRequest.of("s", "SELECT n FROM t"));
            assertThat(ok.status()).isEqualTo(ToolStatus.OK);
        } finally {
            FakeEngineFactory.DOWN.remove("path");
        }
    }

    @Test
    void startThrowsOnlyForAConfigurationThatCannotWork() {
        try (SqlGuard guard = SqlGuard.builder()
                .source("bad", "fake", Map.of("mode", "badconfig"), GuardrailPolicy.defaults())
                .source("down", "fake", Map.of("mode", "unavailable"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            assertThatThrownBy(() -> guard.start("bad")).isInstanceOf(ConfigException.class)
                    .hasMessage("source 'bad': Source 'bad' rejected credentials none.");
            assertThat(guard.start("down").error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThatThrownBy(() -> guard.guardedPath(List.of("bad"))).isInstanceOf(ConfigException.class);
            assertThat(guard.status()).extracting(SourceStatus::available).containsExactly(false, false);
        }
    }

    @Test
    void aSourceThatCannotStartReportsHowLongTheAttemptTook() {
        try (SqlGuard guard = SqlGuard.builder()
                .source("slow", "fake", Map.of("mode", "slow"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            ToolResult result = guard.query("slow", "SELECT 1");
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(result.elapsedMs()).as("at least the time the failed start took").isGreaterThanOrEqualTo(FakeEngineFactory.SLOW_START_MS);
        }
        assertThat(events).singleElement().satisfies(e -> assertThat(e.durationMs()).isGreaterThanOrEqualTo(FakeEngineFactory.SLOW_START_MS));
    }

    @Test
    @Timeout(30) // a hang guard: a call that waited behind the hung attempt would never return
    void aCallNeverWaitsBehindAHungAttemptToReopenADownSource() throws Exception {
        FakeEngineFactory.Gate gate = new FakeEngineFactory.Gate(new java.util.concurrent.CountDownLatch(1),
                new java.util.concurrent.CountDownLatch(1));
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("mode", "gate:hung"), GuardrailPolicy.defaults())
                .auditSink(events::add).build()) {
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.ERROR); // fails at once, no gate yet
            FakeEngineFactory.GATES.put("hung", gate);
            assertThat(gate.entered().await(20, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the background retry reached the hung start").isTrue();

            ToolResult meanwhile = guard.query("s", "SELECT n FROM t");
            assertThat(meanwhile.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
            assertThat(guard.status().get(0).available()).isFalse();
            // closing does not wait for the hung attempt either (the gate opens only after close)
        } finally {
            FakeEngineFactory.GATES.remove("hung");
            gate.release().countDown();
        }
    }

    @Test
    void engineErrorsAreMasked() {
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("mode", "badconfig", "password", "correct-horse-battery"), GuardrailPolicy.defaults())
                .auditSink(AuditSink.discarding()).build()) {
            assertThatThrownBy(() -> guard.start("s"))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("****")
                    .hasMessageNotContaining("correct-horse-battery");
        }
    }

    @Test
    void secretsInResultMessagesAreMasked() {
        try (SqlGuard guard = SqlGuard.builder()
                .source("s", "fake", Map.of("password", "correct-horse-battery"), GuardrailPolicy.defaults())
                .auditSink(AuditSink.discarding()).build()) {
            ToolResult result = guard.query("s", "SELECT leak");
            assertThat(result.status()).isEqualTo(ToolStatus.ERROR);
            assertThat(result.error().orElseThrow().message()).isEqualTo("Login with **** was refused.");
            assertThat(SqlGuard.toJson(result)).doesNotContain("correct-horse-battery");
        }
    }

    @Test
    void theBuilderRefusesUnknownEnginesPropertiesAndDuplicateIds() {
        assertThatThrownBy(() -> SqlGuard.builder().source("s", "nosuch", Map.of(), GuardrailPolicy.defaults()).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown engine 'nosuch'; engines found: ")
                .hasMessageContaining("fake");
        assertThatThrownBy(() -> SqlGuard.builder().source("s", "fake", Map.of("colour", "red"), GuardrailPolicy.defaults()).build())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'colour' is not a setting of engine 'fake'; known: database, mode, password, rows.");
        EngineFactory needy = new FakeEngineFactory("needy") {
            @Override
            public List<PropertySpec> properties() {
                return List.of(PropertySpec.required("database", "The database file."));
            }
        };
        assertThatThrownBy(() -> SqlGuard.builder().engine(needy).source("s", "needy", Map.of(), GuardrailPolicy.defaults()).build())
                .isInstanceOf(ConfigException.class)
                .hasMessage("source 's': engine 'needy' needs the setting 'database': The database file.");
        assertThatThrownBy(() -> SqlGuard.builder().source("s", "fake", Map.of(), GuardrailPolicy.defaults())
                .source("s", "fake", Map.of(), GuardrailPolicy.defaults()))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> SqlGuard.builder().source("no spaces", "fake", Map.of(), GuardrailPolicy.defaults()))
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> SqlGuard.builder().build()).isInstanceOf(ConfigException.class);
    }

    @Test
    @Timeout(30)
    void isThreadSafeAndClosesEveryEngineOnce() throws Exception {
        int closedBefore = FakeEngineFactory.CLOSED.get();
        int createdBefore = FakeEngineFactory.CREATED.get();
        SqlGuard guard = guard();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ToolResult>> futures = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String source = i % 2 == 0 ? "claims" : "other";
                futures.add(pool.submit(() -> guard.query(source, "SELECT n FROM t")));
            }
            for (Future<ToolResult> f : futures) {
                assertThat(f.get().status()).isEqualTo(ToolStatus.OK);
            }
        } finally {
            pool.shutdown();
        }
        assertThat(FakeEngineFactory.CREATED.get() - createdBefore).isEqualTo(2);
        guard.close();
        guard.close();
        assertThat(FakeEngineFactory.CLOSED.get() - closedBefore).isEqualTo(2);
        assertThatThrownBy(() -> guard.query("claims", "SELECT 1")).isInstanceOf(IllegalStateException.class);
        assertThat(events).hasSize(200);
    }

    @Test
    void readsAConfigFileAndWritesAuditLinesToTheConfiguredFile(@TempDir Path dir) throws Exception {
        Path audit = dir.resolve("logs/audit.jsonl");
        Path config = dir.resolve("sqlguard.yaml");
        Files.writeString(config, "sources:\n  s:\n    engine: fake\n    password: ${PW}\naudit:\n  file: " + audit + "\n");

        try (SqlGuard guard = SqlGuard.fromConfig(config, Map.of("PW", "pw-value-123"))) {
            assertThat(guard.query("s", "SELECT n FROM t").status()).isEqualTo(ToolStatus.OK);
            assertThat(guard.query("s", "DROP TABLE t").status()).isEqualTo(ToolStatus.REJECTED);
        }
        List<String> lines = Files.readAllLines(audit);
        assertThat(lines).filteredOn(l -> l.contains("\"type\":\"audit\"")).hasSize(2);
        assertThat(lines).filteredOn(l -> l.contains("\"type\":\"lifecycle\"")).as("the start of the query that ran").hasSize(1);
        assertThat(String.join("\n", lines)).doesNotContain("SELECT").doesNotContain("DROP").doesNotContain("pw-value-123");

        assertThatThrownBy(() -> SqlGuard.fromConfig(config, Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("environment variable PW is not set");
    }
}
