package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import dev.sqlguard.domain.GuardrailPolicy;

/**
 * A parsed, checked and immutable sqlguard configuration (the content of {@code sqlguard.yaml}).
 * Environment variables are already substituted. {@link #toString()} never shows secrets.
 *
 * @param sources the data sources by logical id, in file order
 * @param model the optional chat-model endpoint
 * @param audit where audit events go
 */
public record SqlGuardConfig(Map<String, SourceConfig> sources, Optional<ModelConfig> model, AuditConfig audit) {
    private static final Pattern SOURCE_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}");

    public SqlGuardConfig {
        requireNonNull(sources, "sources is null");
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("a configuration needs at least one source");
        }
        Map<String, SourceConfig> copy = new LinkedHashMap<>();
        sources.forEach((id, source) -> {
            if (!id.equals(source.id())) {
                throw new IllegalArgumentException("source key " + id + " does not match its id " + source.id());
            }
            copy.put(id, source);
        });
        sources = java.util.Collections.unmodifiableMap(copy);
        requireNonNull(model, "model is null");
        requireNonNull(audit, "audit is null");
    }

    /** Whether {@code id} is a valid logical source id: letters, digits, {@code _ . -}, at most 64 characters. */
    public static boolean isValidSourceId(String id) {
        return id != null && SOURCE_ID.matcher(id).matches();
    }

    /**
     * One data source.
     *
     * @param id the logical id the agent sees
     * @param engine the exact engine name ({@code duckdb}, {@code mysql}, ...)
     * @param properties the engine's own settings, as strings
     * @param sensitiveProperties property names whose values are secrets (masked everywhere)
     * @param policy the guardrail policy
     */
    public record SourceConfig(String id, String engine, Map<String, String> properties,
                               Set<String> sensitiveProperties, GuardrailPolicy policy) {
        public SourceConfig {
            if (!isValidSourceId(id)) {
                throw new IllegalArgumentException("invalid source id");
            }
            requireNonNull(engine, "engine is null");
            if (engine.isBlank()) {
                throw new IllegalArgumentException("engine is blank");
            }
            properties = Map.copyOf(requireNonNull(properties, "properties is null"));
            sensitiveProperties = Set.copyOf(requireNonNull(sensitiveProperties, "sensitiveProperties is null"));
            requireNonNull(policy, "policy is null");
        }

        /** The properties with secret values replaced by {@code ****}. */
        public Map<String, String> maskedProperties() {
            Map<String, String> out = new TreeMap<>();
            properties.forEach((k, v) -> out.put(k, sensitiveProperties.contains(k) ? "****" : v));
            return out;
        }

        @Override
        public String toString() {
            return "SourceConfig[id=" + id + ", engine=" + engine + ", properties=" + maskedProperties() + "]";
        }
    }

    /**
     * An OpenAI-compatible chat endpoint, for commands that ask a model.
     *
     * @param baseUrl the endpoint's base URL (http or https)
     * @param model the model name
     * @param apiKey the API key, if the endpoint needs one (a secret)
     */
    public record ModelConfig(URI baseUrl, String model, Optional<String> apiKey) {
        public ModelConfig {
            requireNonNull(baseUrl, "baseUrl is null");
            String scheme = baseUrl.getScheme();
            if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || baseUrl.getHost() == null) {
                throw new IllegalArgumentException("baseUrl must be an http or https URL");
            }
            requireNonNull(model, "model is null");
            if (model.isBlank()) {
                throw new IllegalArgumentException("model is blank");
            }
            requireNonNull(apiKey, "apiKey is null");
        }

        @Override
        public String toString() {
            return "ModelConfig[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey.isPresent() ? "****" : "none") + "]";
        }
    }

    /**
     * Where audit events go: one JSON line per event, appended to {@code file}, or written to
     * standard error when no file is set. Never to standard output.
     */
    public record AuditConfig(Optional<Path> file) {
        public AuditConfig {
            requireNonNull(file, "file is null");
        }

        public static AuditConfig stderr() {
            return new AuditConfig(Optional.empty());
        }
    }
}
