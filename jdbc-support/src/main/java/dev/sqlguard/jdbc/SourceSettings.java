package dev.sqlguard.jdbc;

import java.util.Optional;
import java.util.function.UnaryOperator;

import dev.sqlguard.domain.EngineDefaults;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.TableAllowlist;
import dev.sqlguard.ports.EngineConfig;

/**
 * The configuration checks every JDBC engine's factory runs in {@code create}, after
 * {@code config.check(properties())} and before it connects: each failure is a
 * {@code CONFIGURATION_ERROR} naming the source and the setting, never its value. The names of the
 * settings a JDBC server engine shares ({@code url}, {@code username}, {@code password},
 * {@code defaultSchema}, {@code requireReadOnlyAccount}, {@code poolSize}) are defined here once, so
 * that every such engine is configured with the same keys.
 */
public final class SourceSettings {
    /** The JDBC URL, parsed strictly by {@link JdbcUrl}. */
    public static final String URL = "url";
    /** The database account. */
    public static final String USERNAME = "username";
    /** The account's password; declare it sensitive. */
    public static final String PASSWORD = "password";
    /** The schema unqualified table names resolve to. */
    public static final String DEFAULT_SCHEMA = "defaultSchema";
    /** Whether an account that can do more than read stops the start (true) or only warns (false). */
    public static final String REQUIRE_READ_ONLY_ACCOUNT = "requireReadOnlyAccount";
    /** Connections in the query pool, {@link #poolSize 1 to 64}. */
    public static final String POOL_SIZE = "poolSize";
    /** The query pool's size when {@link #POOL_SIZE} is not set. */
    public static final int DEFAULT_POOL_SIZE = 4;

    private SourceSettings() {
    }

    /** A {@code CONFIGURATION_ERROR} for {@code source}: "Source 'id': message". */
    public static GuardException bad(String source, String message) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + source + "': " + message);
    }

    /** The whole number {@code key} holds, from {@code min} to {@code max}, or {@code fallback} when it is not set. */
    public static int wholeNumber(EngineConfig config, String key, int min, int max, int fallback) {
        Optional<String> value = config.property(key);
        if (value.isEmpty()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value.get().strip());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw bad(config.sourceId(), "'" + key + "' must be a whole number from " + min + " to " + max + ".");
    }

    /** The {@link #POOL_SIZE} setting: a whole number from 1 to 64, {@link #DEFAULT_POOL_SIZE} when not set. */
    public static int poolSize(EngineConfig config) {
        return wholeNumber(config, POOL_SIZE, 1, 64, DEFAULT_POOL_SIZE);
    }

    /**
     * The source's policy with its table allowlist resolving unqualified names in {@code schema}, as the
     * domain fills the engine's schema in ({@link GuardrailPolicy#effective}; the engine reports the same
     * schema as {@link EngineDefaults#inSchema}). A network engine runs only under a restricted allowlist
     * ("no allowlist, no queries"): this is the one place a JDBC engine refuses a source without one,
     * before it connects. An allowlist that names a default schema of its own must name this one.
     *
     * @param engine the engine's name, for the message
     * @param fold how the server compares schema names (identity where they are case-sensitive)
     */
    public static GuardrailPolicy allowlistIn(String engine, EngineConfig config, String schema, UnaryOperator<String> fold) {
        return allowlistIn(engine, config, "defaultSchema", schema, fold);
    }

    /**
     * {@link #allowlistIn(String, EngineConfig, String, UnaryOperator)} for an engine whose default
     * schema is the setting {@code schemaKey}, which the message names.
     */
    public static GuardrailPolicy allowlistIn(String engine, EngineConfig config, String schemaKey, String schema,
                                              UnaryOperator<String> fold) {
        GuardrailPolicy policy = config.policy();
        if (!policy.tables().restricted()) {
            throw bad(config.sourceId(), "the " + engine + " engine needs a table allowlist (no allowlist, no queries).");
        }
        Optional<String> own = policy.tables().defaultSchema();
        if (own.isPresent() && !own.get().equals(fold.apply(schema))) {
            throw bad(config.sourceId(), "the allowlist's default schema differs from '" + schemaKey + "'.");
        }
        return policy.withTables(new TableAllowlist(Optional.of(schema), policy.tables().tables(), true));
    }
}
