package dev.sqlguard.duckdb.internal;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.Suggestions;

/**
 * Checks the functions a policy names against DuckDB's own catalog ({@code duckdb_functions()}) when
 * the engine starts: a typo such as {@code nosuchfunc}, a function on the never-list, or one
 * sqlguard has no cost class for is a configuration error naming it, not a silent refusal later.
 */
final class ConfiguredFunctions {
    private static final Logger LOG = LoggerFactory.getLogger(ConfiguredFunctions.class);

    /** Names DuckDB's parser turns into special forms rather than catalog functions. */
    static final Set<String> SPECIAL_FORMS = Set.of("coalesce", "ifnull", "nullif", "grouping", "grouping_id",
            "percentile_cont", "percentile_disc", "current_date", "current_time", "current_timestamp", "get_current_date",
            "iif", "if", "row", "unnest", "count");

    private ConfiguredFunctions() {
    }

    static void check(Connection root, GuardrailPolicy policy) {
        if (policy.functions().isEmpty() && policy.tableFunctions().isEmpty()) {
            return;
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
        for (String name : policy.functions()) {
            requireAllowable(name, "function");
            if (!scalars.contains(name)) {
                throw unknown(name, "function", scalars);
            }
            if (FunctionCosts.of(name).isEmpty()) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The policy allowlists the function "
                        + SafeText.identifier(name) + ", which sqlguard has no cost class for (it cannot tell whether the "
                        + "function can fail or build large values); remove it from policy.functions.");
            }
        }
        for (String name : policy.tableFunctions()) {
            requireAllowable(name, "table function");
            if (!tables.contains(name)) {
                throw unknown(name, "table function", tables);
            }
        }
    }

    private static void requireAllowable(String name, String kind) {
        if (FunctionDefaults.isNever(name)) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "The policy allowlists the " + kind + " "
                    + SafeText.identifier(name) + ", which reads files, settings, secrets or the catalog, or runs SQL "
                    + "text: sqlguard never allows it.");
        }
    }

    private static GuardException unknown(String name, String kind, Set<String> known) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "The policy allowlists the " + kind + " "
                + SafeText.identifier(name) + ", which DuckDB does not know." + Suggestions.didYouMean(name, known));
    }
}
