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
import dev.sqlguard.domain.QueryService;

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

    /** {@code values} sorted by key, with the values of {@code sensitive} keys replaced by {@code ****}. */
    private static Map<String, String> masked(Map<String, String> values, Set<String> sensitive) {
        Map<String, String> out = new TreeMap<>();
        values.forEach((k, v) -> out.put(k, sensitive.contains(k) ? "****" : v));
        return out;
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
                               Set<String> sensitiveProperties, GuardrailPolicy policy, Optional<Origin> origin) {
        /** A source built in code: it has no file and line. */
        public SourceConfig(String id, String engine, Map<String, String> properties, Set<String> sensitiveProperties,
                            GuardrailPolicy policy) {
            this(id, engine, properties, sensitiveProperties, policy, Optional.empty());
        }

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
            requireNonNull(origin, "origin is null");
        }

        /** The properties with secret values replaced by {@code ****}. */
        public Map<String, String> maskedProperties() {
            return masked(properties, sensitiveProperties);
        }

        @Override
        public String toString() {
            return "SourceConfig[id=" + id + ", engine=" + engine + ", properties=" + maskedProperties() + "]";
        }
    }

    /**
     * Where a source was written: the configuration file and the line of each of its keys, so that
     * a problem found only when its engine starts (a missing database file, an allowlisted table the
     * database lacks) can name the file, the line and the key path.
     *
     * @param file the configuration file as given
     * @param lines the line of each key path under {@code sources.<id>} ({@code database},
     *     {@code policy.tables.claims}, ...); the empty path is the source's own line
     */
    public record Origin(String file, Map<String, Integer> lines) {
        public Origin {
            requireNonNull(file, "file is null");
            lines = Map.copyOf(requireNonNull(lines, "lines is null"));
        }

        /** The line of {@code keyPath}, else of the source itself. */
        public int lineOf(String keyPath) {
            return lines.getOrDefault(keyPath, lines.getOrDefault("", 1));
        }
    }

    /**
     * The chat model for commands that ask one: the model plug-in ({@code provider}, a
     * {@code ModelPortFactory} name) and its settings as strings ({@code baseUrl}, {@code model},
     * {@code apiKey}, timeouts, ...). {@link #toString()} masks the sensitive ones.
     *
     * @param provider the model plug-in name, e.g. {@code openai}
     * @param settings the plug-in's settings, {@code ${VAR}} already resolved
     * @param sensitiveSettings setting names whose values are secrets
     */
    public record ModelConfig(String provider, Map<String, String> settings, Set<String> sensitiveSettings) {
        public ModelConfig {
            requireNonNull(provider, "provider is null");
            if (provider.isBlank()) {
                throw new IllegalArgumentException("provider is blank");
            }
            settings = Map.copyOf(requireNonNull(settings, "settings is null"));
            sensitiveSettings = Set.copyOf(requireNonNull(sensitiveSettings, "sensitiveSettings is null"));
            String url = settings.get("baseUrl");
            if (url != null) {
                URI uri;
                try {
                    uri = new URI(url);
                } catch (java.net.URISyntaxException e) {
                    throw new IllegalArgumentException("baseUrl must be an http or https URL");
                }
                String scheme = uri.getScheme();
                if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                    throw new IllegalArgumentException("baseUrl must be an http or https URL");
                }
            }
            String model = settings.get("model");
            if (model != null && model.isBlank()) {
                throw new IllegalArgumentException("model is blank");
            }
        }

        public Optional<URI> baseUrl() {
            return Optional.ofNullable(settings.get("baseUrl")).map(URI::create);
        }

        public Optional<String> model() {
            return Optional.ofNullable(settings.get("model"));
        }

        public Optional<String> apiKey() {
            return Optional.ofNullable(settings.get("apiKey"));
        }

        /** The settings with secret values replaced by {@code ****}. */
        public Map<String, String> maskedSettings() {
            return masked(settings, sensitiveSettings);
        }

        @Override
        public String toString() {
            return "ModelConfig[provider=" + provider + ", settings=" + maskedSettings() + "]";
        }
    }

    /**
     * Where audit events go: one JSON line per event, appended to {@code file}, or written to
     * standard error when no file is set. Never to standard output.
     */
    /**
     * Where audit events go and what happens to a call whose record cannot be written.
     *
     * @param file the JSON-lines file, else standard error
     * @param onFailure {@code REFUSE} (the default: the call fails closed with AUDIT_UNAVAILABLE) or
     *     {@code CONTINUE} (the call's result is returned and the loss is logged)
     */
    public record AuditConfig(Optional<Path> file, QueryService.AuditFailure onFailure) {
        public AuditConfig {
            requireNonNull(file, "file is null");
            requireNonNull(onFailure, "onFailure is null");
        }

        /** Audit to {@code file} (else stderr), failing closed. */
        public AuditConfig(Optional<Path> file) {
            this(file, QueryService.AuditFailure.REFUSE);
        }

        public static AuditConfig stderr() {
            return new AuditConfig(Optional.empty());
        }
    }
}
