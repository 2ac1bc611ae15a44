package dev.sqlguard.domain;

/**
 * Where a query uses the value of a base column. Only {@link #OUTPUT} hands a value back as data,
 * where redaction by lineage applies; every other position decides which rows come back, how many
 * or in which order, so the result itself would reveal what redaction hides. The order is the order
 * in which {@link SensitiveFlow} reports them: the most specific first.
 */
public enum UsePosition {
    /** The value of an output column. */
    OUTPUT("be selected"),
    /** WHERE, HAVING, QUALIFY and aggregate FILTER conditions. */
    FILTER("filter rows"),
    /** A join condition or join key (ON, USING, NATURAL). */
    JOIN("join tables"),
    /** The compared value of IN (subquery), EXISTS, ANY or ALL, or a correlation into a subquery. */
    SUBQUERY_PREDICATE("be compared with a subquery"),
    /** UNION (without ALL), INTERSECT and EXCEPT, which compare whole rows. */
    SET_COMPARISON("be compared by a set operation"),
    /** A GROUP BY key. */
    GROUPING("group rows"),
    /** DISTINCT or DISTINCT ON, which compares whole rows or keys. */
    DISTINCT("make rows distinct"),
    /** An ORDER BY key, also inside an aggregate. */
    ORDERING("order rows"),
    /** A window's PARTITION BY or ORDER BY key, or a frame bound. */
    WINDOW("partition or order a window"),
    /** LIMIT, OFFSET, SAMPLE, unnest or table-function arguments, which decide how many rows there are. */
    ROW_COUNT("decide how many rows come back");

    private final String verb;

    UsePosition(String verb) {
        this.verb = verb;
    }

    /** What the position does, for messages: "filter rows". */
    public String verb() {
        return verb;
    }
}
