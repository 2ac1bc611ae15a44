package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.FunctionFacts;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Suggestions;

/**
 * What DuckDB's own catalog ({@code duckdb_functions()}) and sqlguard's cost classes know about function
 * names a configuration lists, as facts: a typo such as {@code nosuchfunc} is unknown (with DuckDB's
 * nearest names), a function sqlguard has no cost class for is reported as such. The host decides
 * ({@link dev.sqlguard.domain.FunctionConfiguration#require}); the never-list is in
 * {@link FunctionDefaults#CLASSES}.
 */
final class ConfiguredFunctions {
    private static final Logger LOG = LoggerFactory.getLogger(ConfiguredFunctions.class);

    /** Names DuckDB's parser turns into special forms rather than catalog functions. */
    static final Set<String> SPECIAL_FORMS = Set.of("coalesce", "ifnull", "nullif", "grouping", "grouping_id",
            "percentile_cont", "percentile_disc", "current_date", "current_time", "current_timestamp", "get_current_date",
            "iif", "if", "row", "unnest", "count");

    private ConfiguredFunctions() {
    }

    /**
     * The facts about {@code functions} and {@code tableFunctions}, read from {@code root}'s catalog.
     *
     * @throws GuardException ENGINE_UNAVAILABLE when the catalog cannot be read
     */
    static FunctionFacts facts(Connection root, Set<String> functions, Set<String> tableFunctions) {
        if (functions.isEmpty() && tableFunctions.isEmpty()) {
            return new FunctionFacts("DuckDB", Map.of(), Map.of());
        }
        Set<String> scalars = new TreeSet<>();
        Set<String> tables = new TreeSet<>();
        try (Statement st = root.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT lower(function_name), function_type FROM duckdb_functions()")) {
            while (rs.next()) {
                (rs.getString(2).startsWith("table") ? tables : scalars).add(rs.getString(1));
            }
        } catch (SQLException e) {
            LOG.debug("duckdb_functions() failed", e);
            throw new GuardException(ErrorCode.ENGINE_UNAVAILABLE, "The DuckDB function catalog could not be read.", e);
        }
        scalars.addAll(SPECIAL_FORMS);
        Map<String, FunctionFacts.Fact> scalarFacts = new LinkedHashMap<>();
        for (String name : functions) {
            scalarFacts.put(name, !scalars.contains(name) ? unknown(name, scalars)
                    : FunctionCosts.of(name).isEmpty() ? FunctionFacts.Fact.noCostClass() : FunctionFacts.Fact.known());
        }
        Map<String, FunctionFacts.Fact> tableFacts = new LinkedHashMap<>();
        for (String name : tableFunctions) {
            tableFacts.put(name, tables.contains(name) ? FunctionFacts.Fact.known() : unknown(name, tables));
        }
        return new FunctionFacts("DuckDB", scalarFacts, tableFacts);
    }

    private static FunctionFacts.Fact unknown(String name, Set<String> known) {
        return FunctionFacts.Fact.unknown(Suggestions.closest(name, known, 3));
    }
}
