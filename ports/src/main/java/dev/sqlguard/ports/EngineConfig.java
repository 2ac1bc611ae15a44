package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

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

    /** Refuses properties the engine does not know, naming the first one. */
    public void requireKnown(Set<String> known) {
        for (String name : new TreeMap<>(properties).keySet()) {
            if (!known.contains(name)) {
                throw new GuardException(ErrorCode.CONFIGURATION_ERROR,
                        "Source '" + sourceId + "': unknown property '" + name + "'; known: " + new java.util.TreeSet<>(known) + ".");
            }
        }
    }

    /** The properties with sensitive values replaced by {@code ****}, for logs. */
    public Map<String, String> masked(Set<String> sensitive) {
        Map<String, String> out = new TreeMap<>();
        properties.forEach((k, v) -> out.put(k, sensitive.contains(k) ? "****" : v));
        return out;
    }

    @Override
    public String toString() {
        return "EngineConfig[sourceId=" + sourceId + ", properties=" + properties.keySet() + "]";
    }
}
