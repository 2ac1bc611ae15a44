package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.port.ExecutionPort;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.EnginePlugins;

/**
 * The part of {@link EngineContractSuite} that proves what the engine itself does, not what the
 * validator refuses: every proof here goes past the checker, to the raw port of
 * {@link EngineFixture#rawPort} (a test fixture's, never the product's way in).
 * <ul>
 *   <li>the engine refuses each {@link EngineWrite} of {@link EngineFixture#engineWrites()}: an insert,
 *       an update, DDL and a sequence advance never run, and a setting or temp table never outlives
 *       its call;</li>
 *   <li>the row bound is in the statement the engine runs: read to its end, it yields at most
 *       max rows + 1 rows, on a table and on a join of it with itself;</li>
 *   <li>the engine stops a runaway statement at its own deadline; a watchdog of this suite fails the
 *       test with a message when it does not, instead of hanging;</li>
 *   <li>the adapter starts and answers when it is loaded through the CLI's plug-in class loader
 *       ({@link EnginePlugins}), with its own jars (its classes and its driver) visible to that loader
 *       only, as they are in a plug-in folder.</li>
 * </ul>
 * The suite implements the four hooks; an adapter does not.
 */
public interface EngineLevelProofs {
    /** How long the suite waits for a stop the engine owes after one second. */
    Duration DEADLINE_WATCHDOG = Duration.ofSeconds(60);

    /** The fixture of the running suite. */
    EngineFixture proofFixture();

    /** An engine over the fixture that the suite closes after the test. */
    Engine proofEngine(GuardrailPolicy policy);

    /** The contract policy. */
    GuardrailPolicy proofPolicy();

    /** The fingerprint taken before the first test. */
    String proofFingerprint();

    // ---------------------------------------------------------------- the engine refuses to write

    @Test
    default void aFixtureDeclaresAnEngineLevelWriteOfEveryKind() {
        Set<EngineWrite.Kind> kinds = EnumSet.noneOf(EngineWrite.Kind.class);
        proofFixture().engineWrites().forEach(w -> kinds.add(w.kind()));
        assertThat(kinds).as("kinds of EngineFixture.engineWrites()").containsExactlyInAnyOrder(EngineWrite.Kind.values());
    }

    /** One test per write: the engine refuses it (or, for a setting or temp table, keeps it inside the call). */
    @TestFactory
    default Stream<DynamicTest> theEngineItselfRefusesToWrite() {
        return proofFixture().engineWrites().stream().map(write -> DynamicTest.dynamicTest(write.kind() + ": " + write.statement(), () -> {
            Engine engine = proofEngine(proofPolicy());
            ExecutionPort raw = proofFixture().rawPort(engine);
            String label = outputLabel(engine);
            String before = write.trace().map(t -> outcome(raw, t, List.of(label))).orElse("");
            if (write.trace().isPresent()) {
                assertThat(before).as("the trace must answer before the write, or it proves nothing: " + write.trace().get())
                        .startsWith("rows ");
            }
            String ran = outcome(raw, write.statement(), List.of());
            if (write.kind().writesTheDatabase()) {
                assertThat(ran).as("the engine ran a write that skipped the checker: " + write.statement()).startsWith("refused ");
            }
            assertThat(proofFixture().fingerprint()).as("database after " + write.statement()).isEqualTo(proofFingerprint());
            if (write.trace().isPresent()) {
                for (int call = 1; call <= 3; call++) {
                    assertThat(outcome(raw, write.trace().get(), List.of(label)))
                            .as("call %d after %s: %s", call, write.statement(), write.trace().get()).isEqualTo(before);
                }
            }
        }));
    }

    // ---------------------------------------------------------------- the row bound is the engine's

    /**
     * The checked statement, read through the raw port to its very end (no cursor stops early),
     * yields at most max rows + 1 rows, though the table has 60 and its join with itself 1,770:
     * the bound is in the statement the engine runs, so the engine stops producing rows, not only
     * the reader.
     */
    @Test
    default void theRowBoundIsInTheStatementTheEngineRuns() {
        int maxRows = 5;
        Engine engine = proofEngine(proofPolicy().withLimits(Limits.defaults().withMaxRows(maxRows)));
        List<String> queries = new ArrayList<>(List.of("SELECT id FROM claims ORDER BY id", "SELECT id, region FROM claims"));
        if (engine.capabilities().contains(EngineCapability.JOINS)) {
            queries.add("SELECT a.id AS x, b.id AS y FROM claims a JOIN claims b ON a.id > b.id");
        }
        ExecutionPort raw = proofFixture().rawPort(engine);
        for (String sql : queries) {
            QueryPlan plan = checked(engine, sql);
            long produced = 0;
            try (ResultCursor cursor = raw.execute(plan)) {
                while (cursor.next()) {
                    produced++;
                }
            }
            assertThat(produced).as("rows the engine produced for %s (read to the end; the bound %d must be in the statement it ran: %s)",
                    sql, maxRows + 1, plan.executableSql()).isEqualTo(maxRows + 1);
        }
    }

    // ---------------------------------------------------------------- the deadline is the engine's

    /**
     * A runaway statement handed to the raw port with a one-second limit fails with
     * EXCEEDED_TIME_LIMIT: the adapter's own deadline stops it, whether it is still computing or
     * streaming. This suite's watchdog fails the test after {@link #DEADLINE_WATCHDOG} instead of hanging.
     */
    @Test
    default void theEngineStopsARunawayStatementAtItsOwnDeadline() {
        Engine engine = proofEngine(proofPolicy().withLimits(Limits.defaults().withTimeout(Duration.ofSeconds(1))));
        QueryPlan plan = checked(engine, proofFixture().runawayQuery());
        ExecutionPort raw = proofFixture().rawPort(engine);
        String outcome = assertTimeoutPreemptively(DEADLINE_WATCHDOG, () -> {
            try (ResultCursor cursor = raw.execute(plan)) {
                while (cursor.next()) {
                    // read on: only the deadline may end it
                }
                return "finished";
            } catch (GuardException e) {
                return e.code().name();
            }
        }, () -> "the engine did not stop a runaway statement at its 1 s deadline within " + DEADLINE_WATCHDOG.toSeconds()
                + " s: the adapter must bound each call on the engine (a statement timeout, or a watchdog that cancels it)");
        assertThat(outcome).as("a runaway statement with a 1 s limit").isEqualTo(ErrorCode.EXCEEDED_TIME_LIMIT.name());
        assertThat(outcome(raw, checked(engine, "SELECT count(*) AS n FROM claims").executableSql(), List.of(outputLabel(engine))))
                .as("the engine answers after the stop").startsWith("rows ");
    }

    // ---------------------------------------------------------------- labels are the engine's own

    /**
     * An output without an alias carries the label the engine itself gives it: the plan's labels (what
     * the caller sees as column names) equal the labels the engine reports for the text as written,
     * run through the raw port. A dialect that makes labels up ({@code expr0}) fails here.
     */
    @Test
    default void unaliasedOutputsCarryTheEnginesOwnLabels() {
        Engine engine = proofEngine(proofPolicy());
        ExecutionPort raw = proofFixture().rawPort(engine);
        for (String sql : List.of("SELECT id, region FROM claims WHERE id = 1", "SELECT count(*) FROM claims",
                "SELECT upper(region) FROM claims WHERE id = 1")) {
            QueryPlan plan = checked(engine, sql);
            List<String> labels = plan.outputs().stream().map(OutputColumn::name).toList();
            QueryPlan asWritten = new QueryPlan("contract", sql, sql, List.of(), Set.of(), Set.of(), Set.of(), plan.outputs(), List.of(),
                    proofPolicy().limits());
            List<String> engines;
            try (ResultCursor cursor = raw.execute(asWritten)) {
                engines = cursor.columns().stream().map(dev.sqlguard.domain.ResultColumn::name).toList();
            } catch (GuardException e) {
                engines = List.of("(the engine's labels do not match: " + e.getMessage() + ")");
            }
            assertThat(engines).as("the engine's own labels for %s; the plan says %s", sql, labels).isEqualTo(labels);
        }
    }

    // ---------------------------------------------------------------- the adapter is a plug-in

    /**
     * The adapter's factory, found by {@link ServiceLoader} through the CLI's plug-in class loader
     * ({@link EnginePlugins#loader}) over the locations of {@link EngineFixture#pluginClasses()} only
     * (hidden from its parent, as they are when the jars sit in a plug-in folder), starts an engine
     * and answers a query. A driver opened through {@code java.sql.DriverManager} fails here: the
     * manager does not hand a caller a driver its class loader did not load.
     */
    @Test
    default void startsAndAnswersWhenLoadedAsAPlugin() throws IOException {
        List<Class<?>> classes = proofFixture().pluginClasses();
        assumeFalse(classes.isEmpty(), "the fixture's engine is not a plug-in (the kit's in-memory engine)");
        Set<URL> locations = new LinkedHashSet<>();
        for (Class<?> c : classes) {
            locations.add(location(c));
        }
        String name = proofFixture().factory().name();
        String type = proofFixture().factory().getClass().getName();
        ClassLoader parent = new HidingClassLoader(EngineLevelProofs.class.getClassLoader(), locations);
        try (URLClassLoader plugins = EnginePlugins.loader(List.copyOf(locations), parent)) {
            EngineFactory factory = ServiceLoader.load(EngineFactory.class, plugins).stream().map(ServiceLoader.Provider::get)
                    .filter(f -> f.name().equals(name) && f.getClass().getName().equals(type)).findFirst()
                    .orElseGet(() -> fail("no EngineFactory " + type + " named '" + name + "' in META-INF/services of " + locations));
            assertThat(factory.getClass().getClassLoader()).as("the factory's class loader").isSameAs(plugins);
            try (Engine engine = proofFixture().engine(factory, "contract", proofPolicy())) {
                QueryPlan plan = checked(engine, "SELECT count(*) AS n FROM claims");
                long rows = 0;
                try (ResultCursor cursor = engine.binding().execution().execute(plan)) {
                    while (cursor.next()) {
                        assertThat(new java.math.BigDecimal(String.valueOf(cursor.get(0)))).isEqualByComparingTo("60");
                        rows++;
                    }
                }
                assertThat(rows).isEqualTo(1);
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    private QueryPlan checked(Engine engine, String sql) {
        QueryPlan plan = engine.binding().validator().validate(new QueryRequest("contract", sql, List.of(), "proof-" + System.nanoTime()));
        engine.binding().policy().authorize(plan);
        return plan;
    }

    /** The label the engine gives an output aliased {@code n} (folded as it folds names). */
    private String outputLabel(Engine engine) {
        return checked(engine, "SELECT count(*) AS n FROM claims").outputs().get(0).name();
    }

    /** {@code rows [...]} with every row read, or {@code refused CODE}. */
    private String outcome(ExecutionPort port, String sql, List<String> labels) {
        QueryPlan plan = new QueryPlan("contract", sql, sql, List.of(), Set.of(), Set.of(), Set.of(),
                labels.stream().map(OutputColumn::untraced).toList(), List.of(), proofPolicy().limits().withTimeout(Duration.ofSeconds(20)));
        List<List<Object>> rows = new ArrayList<>();
        try (ResultCursor cursor = port.execute(plan)) {
            while (cursor.next()) {
                Object[] row = new Object[cursor.columns().size()];
                for (int i = 0; i < row.length; i++) {
                    Object v = cursor.get(i);
                    row[i] = v instanceof Number n ? new java.math.BigDecimal(n.toString()).stripTrailingZeros().toPlainString() : v;
                }
                rows.add(Arrays.asList(row));
            }
            return "rows " + rows;
        } catch (GuardException e) {
            return "refused " + e.code();
        }
    }

    private static URL location(Class<?> c) {
        CodeSource source = c.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            throw new IllegalStateException(c.getName() + " has no code source to load as a plug-in");
        }
        try {
            return source.getLocation().toURI().normalize().toURL();
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException(c.getName() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The CLI's side of a plug-in folder, in a test's class path: every class and resource but those
     * from the plug-in's own locations, which only the plug-in loader may define.
     */
    final class HidingClassLoader extends ClassLoader {
        private final Set<String> hidden = new LinkedHashSet<>();

        HidingClassLoader(ClassLoader delegate, Set<URL> hidden) {
            super("sqlguard-cli", delegate);
            hidden.forEach(u -> this.hidden.add(u.toString()));
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            Class<?> c = super.loadClass(name, resolve);
            CodeSource source = c.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && isHidden(source.getLocation())) {
                throw new ClassNotFoundException(name + " is the plug-in's");
            }
            return c;
        }

        @Override
        public URL getResource(String name) {
            URL url = super.getResource(name);
            return url == null || isHidden(url) ? null : url;
        }

        @Override
        public java.util.Enumeration<URL> getResources(String name) throws IOException {
            List<URL> visible = new ArrayList<>();
            java.util.Enumeration<URL> all = super.getResources(name);
            while (all.hasMoreElements()) {
                URL url = all.nextElement();
                if (!isHidden(url)) {
                    visible.add(url);
                }
            }
            return java.util.Collections.enumeration(visible);
        }

        private boolean isHidden(URL url) {
            String text = url.toString();
            for (String h : hidden) {
                String jar = "jar:" + h + "!";
                if (text.equals(h) || text.startsWith(jar) || (h.endsWith("/") && text.startsWith(h))) {
                    return true;
                }
            }
            return false;
        }
    }
}
