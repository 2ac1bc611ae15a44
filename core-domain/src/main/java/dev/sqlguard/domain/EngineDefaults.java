package dev.sqlguard.domain;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * What an engine reports about itself that a configured policy may leave open: the schema its
 * unqualified table names resolve to, and its {@link FunctionClasses}. The host fills these into the
 * configured policy with {@link GuardrailPolicy#effective}; an engine reports facts and never hands
 * back a policy of its own, so it cannot widen what the configuration allows.
 *
 * @param defaultSchema the schema unqualified table names resolve to on this source, when the engine
 *     has one (a JDBC engine's {@code defaultSchema} or database setting)
 * @param functions the engine's function classes
 */
public record EngineDefaults(Optional<String> defaultSchema, FunctionClasses functions) {
    private static final EngineDefaults NONE = new EngineDefaults(Optional.empty(), FunctionClasses.unreported());

    public EngineDefaults {
        requireNonNull(defaultSchema, "defaultSchema is null");
        defaultSchema.ifPresent(s -> Names.requireName(s, "defaultSchema"));
        requireNonNull(functions, "functions is null");
    }

    /** An engine that reports nothing: no default schema, and {@link FunctionClasses#unreported()}. */
    public static EngineDefaults none() {
        return NONE;
    }

    /** An engine without a default schema of its own. */
    public static EngineDefaults of(FunctionClasses functions) {
        return new EngineDefaults(Optional.empty(), functions);
    }

    /** An engine whose unqualified table names resolve to {@code schema}. */
    public static EngineDefaults inSchema(String schema, FunctionClasses functions) {
        return new EngineDefaults(Optional.of(requireNonNull(schema, "schema is null")), functions);
    }
}
