package dev.sqlguard.domain;

/** What a call asked for: run the query, or only check it. */
public enum Operation {
    /** Validate and run. */
    QUERY("query"),
    /** Validate only: the result carries the SQL that would run. */
    CHECK("check");

    private final String wireName;

    Operation(String wireName) {
        this.wireName = wireName;
    }

    /** The name in audit records and JSON: {@code query} or {@code check}. */
    public String wireName() {
        return wireName;
    }
}
