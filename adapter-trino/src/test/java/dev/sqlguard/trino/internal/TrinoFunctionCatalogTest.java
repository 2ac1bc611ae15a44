package dev.sqlguard.trino.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionConfiguration;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.trino.TestCluster;

/**
 * The function catalog against the test cluster's own {@code SHOW FUNCTIONS}: every classified name
 * is a function the server has (or one of the few special forms its parser handles), aggregates and
 * window functions are what the server says they are, and every server function the catalog does not
 * classify cannot be allowlisted.
 */
@Tag("trino")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TrinoFunctionCatalogTest {
    /** Function name to the kinds the server lists it with (scalar, aggregate, window, table). */
    private final Map<String, Set<String>> server = new HashMap<>();

    @BeforeAll
    void read() throws Exception {
        TestCluster.require();
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, "default"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW FUNCTIONS")) {
            while (rs.next()) {
                server.computeIfAbsent(rs.getString(1), k -> new HashSet<>()).add(rs.getString(4));
            }
        }
        assertThat(server).as("SHOW FUNCTIONS").containsKeys("abs", "count", "row_number");
    }

    @Test
    void everyClassifiedFunctionExistsOnTheServer() {
        Set<String> missing = new TreeSet<>();
        Set<String> notSpecial = new TreeSet<>();
        for (String f : FunctionCatalog.defaults()) {
            if (FunctionCatalog.SPECIAL_FORMS.contains(f)) {
                if (server.containsKey(f)) {
                    notSpecial.add(f);
                }
            } else if (!server.containsKey(f)) {
                missing.add(f);
            }
        }
        assertThat(missing).as("classified but not on Trino").isEmpty();
        assertThat(notSpecial).as("listed as special forms but registered as functions").isEmpty();
        assertThat(FunctionCatalog.defaults()).containsAll(FunctionCatalog.SPECIAL_FORMS);
        for (Map.Entry<String, String> absent : FunctionCatalog.ABSENT.entrySet()) {
            assertThat(server).as("absent on Trino").doesNotContainKey(absent.getKey());
            assertThat(server).as("the nearest to " + absent.getKey()).containsKey(absent.getValue());
            assertThat(FunctionCatalog.RULES.costClass(absent.getValue())).as(absent.getValue()).isPresent();
        }
    }

    @Test
    void theSpecialFormsParseAndRunOnTheServer() throws Exception {
        try (Connection c = TestCluster.connect(TestCluster.ADMIN, "default"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT coalesce(NULL, 2), nullif(1, 2), if(true, 3, 0), extract(year FROM DATE '2024-05-06'),"
                        + " position('a' IN 'ba'), current_timestamp IS NOT NULL, localtimestamp IS NOT NULL")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.getInt(2)).isEqualTo(1);
            assertThat(rs.getInt(3)).isEqualTo(3);
            assertThat(rs.getInt(4)).isEqualTo(2024);
            assertThat(rs.getInt(5)).isEqualTo(2);
            assertThat(rs.getBoolean(6)).isTrue();
            assertThat(rs.getBoolean(7)).isTrue();
        }
    }

    @Test
    void aggregatesAndWindowFunctionsAreWhatTheServerSays() {
        for (String f : FunctionCatalog.AGGREGATES) {
            assertThat(server.get(f)).as(f).contains("aggregate");
        }
        for (String f : FunctionCatalog.WINDOW) {
            assertThat(server.get(f)).as(f).containsAnyOf("window", "aggregate");
        }
        for (Map.Entry<String, Set<String>> e : server.entrySet()) {
            if (FunctionCatalog.RULES.costClass(e.getKey()).isPresent() && e.getValue().contains("aggregate")) {
                assertThat(FunctionCatalog.AGGREGATES).as("a classified aggregate is known as one: " + e.getKey()).contains(e.getKey());
            }
        }
    }

    @Test
    void everyServerFunctionIsClassifiedOrCannotBeAllowlisted() {
        for (String f : new TreeSet<>(server.keySet())) {
            if (FunctionCatalog.RULES.costClass(f).isPresent()) {
                assertThat(FunctionCatalog.RULES.isNever(f)).as(f + " is classified and never allowed").isFalse();
                configure(f);
            } else {
                assertThatThrownBy(() -> configure(f)).as(f)
                        .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
            }
            if (server.get(f).contains("table")) {
                assertThat(FunctionCatalog.RULES.costClass(f)).as("table function " + f).isEmpty();
            }
        }
    }

    /** The start's decision on a configured function: the catalog's facts, the domain's decision. */
    private static void configure(String f) {
        FunctionConfiguration.require("s", GuardrailPolicy.defaults().withFunctions(Set.of(f)), FunctionCatalog.classes(),
                FunctionCatalog.facts(Set.of(f), Set.of()));
    }
}
