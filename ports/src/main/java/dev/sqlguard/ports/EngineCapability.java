package dev.sqlguard.ports;

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
    SCHEMA_INSPECTION
}
