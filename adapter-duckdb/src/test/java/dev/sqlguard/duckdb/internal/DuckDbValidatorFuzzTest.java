package dev.sqlguard.duckdb.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;

import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;

/**
 * Drives the validator with arbitrary text. It may only refuse with {@link GuardException}, and
 * whatever it accepts must be, per DuckDB's own parser, exactly one SELECT wrapping the checked
 * tree in the row bound. Runs the seed corpus under plain {@code mvn verify}; fuzz for longer with
 * {@code JAZZER_FUZZ=1} (see docs/engines/duckdb.md).
 */
class DuckDbValidatorFuzzTest {
    private static Path root;
    private static DuckDbEngine engine;
    private static Connection parser;
    private static PreparedStatement serialize;

    @BeforeAll
    static void open() throws Exception {
        root = Files.createTempDirectory("sqlguard-duckdb-fuzz-");
        Path folder = Files.createDirectory(root.resolve("db"));
        Path db = folder.resolve("fuzz.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE claims (id BIGINT, region VARCHAR, amount DECIMAL(12,2), created DATE)");
            st.execute("CREATE TABLE users (id BIGINT, name VARCHAR, password VARCHAR)");
            st.execute("INSERT INTO claims VALUES (1, 'north', 10.5, DATE '2024-01-01')");
            st.execute("INSERT INTO users VALUES (1, 'alice', 'pw')");
        }
        Path temp = Files.createDirectory(root.resolve("temp"));
        DuckDbSettings settings = new DuckDbSettings(db.toRealPath(), java.util.Optional.of(temp.toRealPath()),
                java.util.Optional.empty(), Limits.DEFAULT_MEMORY_BYTES, 1);
        engine = DuckDbEngine.open("fuzz", GuardrailPolicy.defaults(), settings);
        parser = DriverManager.getConnection("jdbc:duckdb:");
        serialize = parser.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)");
    }

    @AfterAll
    static void close() throws IOException, SQLException {
        serialize.close();
        parser.close();
        engine.close();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @FuzzTest(maxDuration = "30s")
    void validatorAcceptsOnlySingleSelects(FuzzedDataProvider data) throws Exception {
        String sql = data.consumeRemainingAsString();
        if (sql.isBlank() || sql.length() > Limits.DEFAULT_MAX_SQL_LENGTH) {
            return; // QueryService refuses these before any validator runs
        }
        QueryPlan plan;
        try {
            plan = engine.validator().validate(QueryRequest.of("fuzz", sql));
        } catch (GuardException refused) {
            assertThat(refused.code()).isNotNull();
            return;
        }
        boolean masked = !plan.maskedOutputs().isEmpty();
        assertThat(plan.executableSql()).startsWith(masked ? "SELECT * REPLACE (" : "SELECT * FROM (").contains(") AS sqlguard_result LIMIT ");
        serialize.setString(1, plan.executableSql());
        String json;
        try (ResultSet rs = serialize.executeQuery()) {
            rs.next();
            json = rs.getString(1);
        }
        JsonNode tree = DuckDbParser.parse(json);
        assertThat(tree.path("error").asBoolean(true)).as("accepted text must parse: %s", sql).isFalse();
        assertThat(tree.path("statements").size()).as("exactly one statement: %s", sql).isEqualTo(1);
        JsonNode statement = tree.path("statements").get(0);
        if (masked) {
            // a plan that masks outputs runs the row bound with a REPLACE of exactly those outputs, and nothing else
            List<String> labels = new java.util.ArrayList<>();
            statement.path("node").path("select_list").get(0).path("replace_list").forEach(e -> labels.add(e.path("key").asText()));
            assertThat(labels).as("masked outputs: %s", sql).hasSize(plan.maskedOutputs().size());
            JsonNode wrapper = statement.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) wrapper.path("node").path("select_list").get(0)).putArray("replace_list");
            assertThat(DuckDbValidator.isMaskedWrapperAround(statement, wrapper, labels)).as("the masked row bound: %s", sql).isTrue();
            statement = wrapper;
        }
        JsonNode inner = statement.path("node").path("from_table").path("subquery").path("node");
        assertThat(DuckDbValidator.isWrapperAround(statement, inner, plan.limits().maxRows() + 1))
                .as("the executed text is the row bound around one SELECT: %s", sql).isTrue();
        assertThat(inner.path("type").asText()).isIn("SELECT_NODE", "SET_OPERATION_NODE");
    }
}
