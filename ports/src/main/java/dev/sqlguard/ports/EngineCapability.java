package dev.sqlguard.ports;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * SQL features an engine's validator accepts. Where an engine lacks one, queries that need it are
 * refused with the documented code ({@code CONSTRUCT_NOT_ALLOWED}, {@code JOIN_NOT_ALLOWED} or
 * {@code WILDCARD_NOT_ALLOWED}); the contract suite asserts exactly that instead of skipping.
 */
public enum EngineCapability {
    GROUP_BY,
    JOINS,
    SUBQUERIES,
    CTES,
    SET_OPERATIONS,
    WILDCARD,
    SCHEMA_INSPECTION,
    /**
     * Row filters and column masks bound to the caller ({@link dev.sqlguard.domain.RowPolicy}): every
     * reference to a governed table is rendered as its filtered, masked derived table. An engine without
     * it refuses to start with a row policy ({@link EngineParts}), so a policy is never ignored.
     */
    ROW_POLICIES;

    /**
     * Every capability, in this enum's order: an engine that reads the whole read-only SELECT (the
     * DuckDB, MySQL, PostgreSQL and Trino engines). A capability added later is claimed by these
     * engines at once, so the contract suite tests it on each of them.
     */
    public static Set<EngineCapability> all() {
        return Collections.unmodifiableSet(EnumSet.allOf(EngineCapability.class));
    }
}
