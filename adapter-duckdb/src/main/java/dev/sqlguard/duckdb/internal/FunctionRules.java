package dev.sqlguard.duckdb.internal;

/**
 * The parse-tree gate's calls of the function decision: binding can read files, so the gate asks the
 * policy ({@link dev.sqlguard.domain.GuardrailPolicy#requireFunction}) about each function and table
 * function before DuckDB sees the statement, and records it for the plan's facts, where
 * {@link dev.sqlguard.domain.GuardrailPolicy#authorize} decides on it again. It decides nothing itself.
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
        state.policy.requireFunction(name);
        state.calledFunctions.add(name);
    }

    /**
     * A table function in FROM. One qualified by a schema or catalog is not read as that function: it is
     * refused as the policy refuses a function off its list.
     */
    void requireTableFunction(String name, boolean qualified) {
        if (qualified) {
            throw state.policy.tableFunctionRefusal(name);
        }
        state.policy.requireTableFunction(name);
        state.calledTableFunctions.add(name);
    }
}
