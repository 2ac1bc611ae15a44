package dev.sqlguard.app.fake;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import dev.sqlguard.domain.Bindings;
import dev.sqlguard.domain.ColumnRef;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.OutputColumn;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.ResultColumn;
import dev.sqlguard.domain.TableRef;
import dev.sqlguard.domain.port.ResultCursor;
import dev.sqlguard.ports.ComposedEngine;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineCapability;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;
import dev.sqlguard.ports.EngineFactory;
import dev.sqlguard.ports.EngineParts;
import dev.sqlguard.ports.EngineResources;
import dev.sqlguard.ports.PropertySpec;
import dev.sqlguard.ports.TableDescription;
import dev.sqlguard.testing.ListCursor;

/**
 * A small engine for app tests, registered as {@code fake} in test META-INF/services.
 *
 * <p>Validator: one statement ({@code ;} refused), starting with SELECT, never naming
 * {@code secret_table}; one parameter per {@code ?}. Execution: {@code fail} in the SQL fails,
 * {@code empty} returns no row, {@code params} returns the parameters as one row, anything else
 * ({@code leak} fails with a message holding the password) returns {@code rows} rows (property, default 3) of {@code n BIGINT, amount DECIMAL, label VARCHAR}.
 * Property {@code mode}: {@code unavailable} or {@code badconfig} make {@link #create} fail, and so do
 * {@code badfilter} and {@code badmask} when the policy has a row filter or a mask (naming its table);
 * {@code switch:NAME} fails with ENGINE_UNAVAILABLE while {@link #DOWN} holds NAME; {@code slow}
 * fails with ENGINE_UNAVAILABLE after {@link #SLOW_START_MS} milliseconds (a connect that times out);
 * {@code gate:NAME} fails with ENGINE_UNAVAILABLE, after waiting at {@link #GATES}' gate NAME when there is one.
 * A statement that names {@code hold_NAME} waits at the gate NAME, when there is one, before it runs (a call in flight).
 *
 * <p>Row filters ({@code policy.rows}): a statement that names a governed table (as a word) is
 * rendered as an engine renders it, as far as the host can see: its plan's {@link Bindings} take the
 * caller's parameters, then the attributes of each such table's filter, and its executable SQL says
 * {@code filtered: TABLE}. {@code params} returns every bound value, attributes included.
 *
 * <p>Not final: the CLI's plug-in folder test registers subclasses under other names in a jar.
 */
public class FakeEngineFactory implements EngineFactory {
    public static final AtomicInteger CLOSED = new AtomicInteger();
    public static final AtomicInteger CREATED = new AtomicInteger();
    public static final long SLOW_START_MS = 300;
    /** A start that hangs: {@code entered} is counted down when a start reaches it, which then waits for {@code release}. */
    public record Gate(java.util.concurrent.CountDownLatch entered, java.util.concurrent.CountDownLatch release) {
    }

    public static final Map<String, Gate> GATES = new java.util.concurrent.ConcurrentHashMap<>();
    /** The names of {@code switch:NAME} sources that cannot be reached now. */
    public static final Set<String> DOWN = java.util.concurrent.ConcurrentHashMap.newKeySet();
    public static final BigDecimal BIG = new BigDecimal("12345678901234567890.123456789");

    private static final List<PropertySpec> PROPERTIES = List.of(
            PropertySpec.optional("rows", "3", "Rows every query returns."),
            PropertySpec.optional("password", "A password the engine leaks on purpose (in the SQL 'leak').").asSensitive(),
            PropertySpec.optional("mode", "unavailable or badconfig make create fail."),
            PropertySpec.optional("database", "Ignored."));

    public FakeEngineFactory() {
        this("fake");
    }

    private final String name;

    public FakeEngineFactory(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    /** Not final: a test overrides it to declare a required setting. */
    @Override
    public List<PropertySpec> properties() {
        return PROPERTIES;
    }

    @Override
    public Engine create(EngineConfig config, EngineContext context) {
        config.check(properties());
        String mode = config.property("mode").orElse("");
        if (mode.startsWith("gate:")) {
            Gate gate = GATES.get(mode.substring("gate:".length()));
            if (gate != null) {
                gate.entered().countDown();
                try {
                    gate.release().await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The database could not be reached.");
        }
        if (mode.equals("slow")) {
            try {
                Thread.sleep(SLOW_START_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The database could not be reached.");
        }
        if (mode.equals("unavailable") || mode.startsWith("switch:") && DOWN.contains(mode.substring("switch:".length()))) {
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The database could not be reached.");
        }
        if (mode.equals("badfilter") && !config.policy().rows().filters().isEmpty()) {
            // as an engine's start-time check refuses a filter that does not bind: it names the table, never driver text
            String first = config.policy().rows().filters().keySet().stream().map(TableRef::qualifiedName).sorted().findFirst().orElseThrow();
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The row filter of table " + first + " does not bind on this database.");
        }
        if (mode.equals("badmask") && !config.policy().rows().masks().isEmpty()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The mask of column "
                    + config.policy().rows().masks().keySet().iterator().next().column() + " of table "
                    + config.policy().rows().masks().keySet().iterator().next().table().qualifiedName() + " does not bind.");
        }
        if (mode.equals("badconfig")) {
            // deliberately leaks the password, to prove the app masks it
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + config.sourceId() + "' rejected credentials " + config.property("password").orElse("none") + ".");
        }
        int rows;
        try {
            rows = Integer.parseInt(config.property("rows").orElse("3"));
        } catch (NumberFormatException e) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + config.sourceId() + "': rows must be a number.");
        }
        CREATED.incrementAndGet();
        FakeSource source = new FakeSource(config.sourceId(), config.policy(), rows, config.property("password").orElse(""));
        EngineResources resources = new EngineResources();
        resources.add(CLOSED::incrementAndGet);
        // ROW_POLICIES: the fake binds a filtered table's attributes as an engine does, which is what the host's
        // tests observe (MISSING_ATTRIBUTE, the audited attributes); it filters no rows, the engines' suites prove that
        return new ComposedEngine(new EngineParts(source.sourceId(), source.policy(), source::validate, source::execute, source::describe,
                Set.of(EngineCapability.GROUP_BY, EngineCapability.ROW_POLICIES)), resources);
    }

    /** The fake's one source: its validator, execution port and catalog. */
    record FakeSource(String sourceId, GuardrailPolicy policy, int rows, String password) {
        @Override
        public String toString() {
            return "FakeSource[" + sourceId + "]";
        }

        private QueryPlan validate(QueryRequest request) {
            String sql = request.sql().trim();
            String lower = sql.toLowerCase(Locale.ROOT);
            if (lower.contains(";")) {
                throw new GuardException(ErrorCode.MULTIPLE_STATEMENTS);
            }
            if (!lower.startsWith("select")) {
                throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
            }
            if (lower.contains("secret_table")) {
                throw new GuardException(ErrorCode.TABLE_NOT_ALLOWED, "The table 'secret_table' is not allowlisted.");
            }
            long placeholders = sql.chars().filter(c -> c == '?').count();
            if (placeholders != request.params().size()) {
                throw new GuardException(ErrorCode.PARAMETER_COUNT_MISMATCH);
            }
            List<String> filtered = new ArrayList<>();
            Bindings.Builder bindings = Bindings.builder();
            request.params().forEach(p -> bindings.parameter());
            for (TableRef table : policy.rows().governedTables()) {
                if (java.util.regex.Pattern.compile("\\b" + java.util.regex.Pattern.quote(table.table()) + "\\b").matcher(lower).find()) {
                    filtered.add(table.table());
                    policy.rows().filterOf(table).ifPresent(filter -> filter.placeholders().forEach(bindings::attribute));
                }
            }
            Bindings bound = bindings.build();
            List<OutputColumn> outputs = lower.contains("params")
                    ? paramOutputs(bound.size())
                    : List.of(OutputColumn.traced("n", Set.of(ColumnRef.of("t", "n"))),
                            OutputColumn.traced("amount", Set.of(ColumnRef.of("t", "amount"))),
                            OutputColumn.traced("label", Set.of(ColumnRef.of("t", "label"))));
            // the fake's data is no table a policy governs: it reports no table or column read, only lineage;
            // like every engine, it keeps the outputs the policy redacts inside itself (see execute)
            Set<Integer> masked = policy.outputsToMask(outputs);
            String executable = (masked.isEmpty() ? sql + " /* checked */" : sql + " /* checked, masked " + masked + " */")
                    + (filtered.isEmpty() ? "" : " /* filtered: " + String.join(", ", filtered) + " */");
            return new QueryPlan(sourceId, request.sql(), executable, request.params(), Set.of(),
                    Set.of(), Set.of(), outputs, List.of(), policy.limits(), masked, bound, Map.of());
        }

        /** The rows with each masked output replaced by the constant NULL, as a real engine's outer projection returns them. */
        private static List<List<Object>> masked(QueryPlan plan, List<List<Object>> rows) {
            if (plan.maskedOutputs().isEmpty()) {
                return rows;
            }
            List<List<Object>> out = new ArrayList<>();
            for (List<Object> row : rows) {
                List<Object> copy = new ArrayList<>(row);
                plan.maskedOutputs().forEach(i -> copy.set(i, null));
                out.add(copy);
            }
            return out;
        }

        private static List<OutputColumn> paramOutputs(int n) {
            List<OutputColumn> out = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                out.add(OutputColumn.traced("p" + i, Set.of()));
            }
            return out;
        }

        private ResultCursor execute(QueryPlan plan) {
            String lower = plan.originalSql().toLowerCase(Locale.ROOT);
            java.util.regex.Matcher hold = java.util.regex.Pattern.compile("\\bhold_(\\w+)").matcher(lower);
            if (hold.find()) {
                // a statement in flight until the test releases it
                Gate gate = GATES.get(hold.group(1));
                if (gate != null) {
                    gate.entered().countDown();
                    try {
                        gate.release().await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
            if (lower.contains("leak")) {
                // deliberately careless, to prove the facade masks secrets in results
                throw new GuardException(ErrorCode.QUERY_FAILED, "Login with " + password + " was refused.");
            }
            if (lower.contains("fail")) {
                throw new GuardException(ErrorCode.QUERY_FAILED, "The engine could not run the query.");
            }
            if (lower.contains("params")) {
                List<ResultColumn> columns = new ArrayList<>();
                List<Object> values = plan.values();
                for (int i = 1; i <= values.size(); i++) {
                    columns.add(new ResultColumn("p" + i, "ANY"));
                }
                return new ListCursor(columns, masked(plan, List.of(values)));
            }
            List<List<Object>> data = new ArrayList<>();
            int count = lower.contains("empty") ? 0 : rows;
            for (int i = 1; i <= count; i++) {
                data.add(List.of((long) i, BIG.add(BigDecimal.valueOf(i)), "row-" + i));
            }
            return new ListCursor(List.of(new ResultColumn("n", "BIGINT"), new ResultColumn("amount", "DECIMAL(38,9)"),
                    new ResultColumn("label", "VARCHAR")), masked(plan, data));
        }

        private List<TableDescription> describe() {
            List<TableDescription> tables = new ArrayList<>();
            for (Map.Entry<TableRef, Set<String>> e : policy.tables().tables().entrySet()) {
                List<TableDescription.ColumnDescription> columns = e.getValue().stream().sorted()
                        .map(c -> new TableDescription.ColumnDescription(c, "VARCHAR", policy.isSensitive(c)))
                        .toList();
                tables.add(new TableDescription(e.getKey(), columns, OptionalLong.of(rows)));
            }
            tables.sort((a, b) -> a.table().qualifiedName().compareTo(b.table().qualifiedName()));
            return tables;
        }
    }
}
