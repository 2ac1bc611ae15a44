package dev.sqlguard.duckdb.internal;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.SafeText;
import dev.sqlguard.domain.Suggestions;

/**
 * Which functions and table functions the parse-tree gate lets DuckDB bind: the policy's lists (or
 * the documented defaults), never the never-list; a refusal suggests the closest allowed names.
 */
final class FunctionRules {
    private final CheckState state;

    FunctionRules(CheckState state) {
        this.state = state;
    }

    /** A scalar, aggregate or window function the query calls by name. */
    void requireFunction(String called) {
        // count(*) parses as count_star: it is the function count
        String name = "count_star".equals(called) ? "count" : called;
        if (FunctionDefaults.isNever(name) || !state.functions.contains(name)) {
            throw new GuardException(ErrorCode.FUNCTION_NOT_ALLOWED, "The function " + SafeText.identifier(name)
                    + " is not allowlisted." + Suggestions.didYouMean(name, state.functions));
        }
        state.calledFunctions.add(name);
    }

    /** A table function in FROM: allowlisted, never on the never-list, and never qualified by a schema or catalog. */
    void requireTableFunction(String name, boolean qualified) {
        if (qualified || FunctionDefaults.isNever(name) || !state.tableFunctions.contains(name)) {
            throw new GuardException(ErrorCode.TABLE_FUNCTION_NOT_ALLOWED, "The table function " + SafeText.identifier(name)
                    + " is not allowlisted." + Suggestions.didYouMean(name, state.tableFunctions));
        }
        state.calledFunctions.add(name);
    }
}
