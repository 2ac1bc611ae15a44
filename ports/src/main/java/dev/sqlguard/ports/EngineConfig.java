package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;

/**
 * What the app hands an engine factory for one source: the source id, the engine's own
 * properties (already resolved from the environment) and the policy.
 */
public record EngineConfig(String sourceId, Map<String, String> properties, GuardrailPolicy policy) {
    public EngineConfig {
        requireNonNull(sourceId, "sourceId is null");
        properties = Map.copyOf(requireNonNull(properties, "properties is null"));
        requireNonNull(policy, "policy is null");
    }

    public Optional<String> property(String name) {
        return Optional.ofNullable(properties.get(name)).filter(v -> !v.isBlank());
    }

    /** The property's value, or a {@code CONFIGURATION_ERROR} naming the property. */
    public String requireProperty(String name) {
        return property(name).orElseThrow(() -> new GuardException(ErrorCode.CONFIGURATION_ERROR,
                "Source '" + sourceId + "' needs the property '" + name + "'."));
    }

    public boolean booleanProperty(String name, boolean defaultValue) {
        Optional<String> value = property(name);
        if (value.isEmpty()) {
            return defaultValue;
        }
        return switch (value.get().trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                    "Source '" + sourceId + "': property '" + name + "' must be true or false.");
        };
    }

    /**
     * Checks the keys against exactly these settings, with the same check the app's configuration
     * reader uses ({@link PropertySpecs}): refuses a key that is not one of them and a required
     * setting that is missing or blank, each with {@code CONFIGURATION_ERROR} naming the key. The
     * values are the factory's to check.
     */
    public void check(List<PropertySpec> specs) {
        PropertySpecs settings = PropertySpecs.of(specs);
        Optional<String> unknown = settings.firstUnknown(properties.keySet());
        if (unknown.isPresent()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "': unknown property '"
                    + unknown.get() + "'; known: " + settings.names() + ".");
        }
        for (PropertySpec spec : settings.list()) {
            if (spec.required()) {
                requireProperty(spec.name());
            }
        }
    }

    /**
     * Refuses properties the engine does not know, naming the first one: {@link #check(List)} for
     * an engine that declares names only. An engine that declares {@link EngineFactory#properties()}
     * calls {@link #check(List)} with them, which also refuses a missing required setting.
     */
    public void requireKnown(Set<String> known) {
        check(known.stream().sorted().map(name -> PropertySpec.optional(name, "A setting.")).toList());
    }

    @Override
    public String toString() {
        return "EngineConfig[sourceId=" + sourceId + ", properties=" + properties.keySet() + "]";
    }
}
