package dev.sqlguard.ports;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One setting an engine understands: a key under {@code sources.<id>} in the configuration. The
 * host refuses keys no spec names, refuses a configuration that leaves out a required one, and
 * masks the values of sensitive ones everywhere (errors, logs, {@code toString()}).
 *
 * @param name the key, exactly as the configuration writes it, e.g. {@code database}
 * @param required whether the source cannot start without it
 * @param defaultValue what applies when the key is absent, as users should read it: a value such
 *     as {@code 4}, or a short phrase such as {@code the URL's database}; empty for a required
 *     setting or one whose absence simply means "off"
 * @param sensitive whether its value is a secret (a password, a key, a token)
 * @param description one or two sentences for users: what it does and which values it takes
 * @param path whether its value is a file or folder path: a relative one is resolved against the
 *     folder of the configuration file that sets it, not the working directory
 */
public record PropertySpec(String name, boolean required, Optional<String> defaultValue, boolean sensitive, String description,
                           boolean path) {
    public PropertySpec {
        requireNonNull(name, "name is null");
        if (name.isBlank() || !name.strip().equals(name)) {
            throw new IllegalArgumentException("name is blank or padded");
        }
        requireNonNull(defaultValue, "defaultValue is null");
        if (required && defaultValue.isPresent()) {
            throw new IllegalArgumentException("required setting " + name + " has a default");
        }
        requireNonNull(description, "description is null");
        if (description.isBlank()) {
            throw new IllegalArgumentException("setting " + name + " has no description");
        }
    }

    /** A setting that is not a path (the form every engine used before paths were declared). */
    public PropertySpec(String name, boolean required, Optional<String> defaultValue, boolean sensitive, String description) {
        this(name, required, defaultValue, sensitive, description, false);
    }

    /** A setting the source cannot start without. */
    public static PropertySpec required(String name, String description) {
        return new PropertySpec(name, true, Optional.empty(), false, description);
    }

    /** An optional setting with what applies when it is absent. */
    public static PropertySpec optional(String name, String defaultValue, String description) {
        return new PropertySpec(name, false, Optional.of(defaultValue), false, description);
    }

    /** An optional setting whose absence needs no explanation (it is off, or empty). */
    public static PropertySpec optional(String name, String description) {
        return new PropertySpec(name, false, Optional.empty(), false, description);
    }

    /** The same setting, with its value treated as a secret. */
    public PropertySpec asSensitive() {
        return new PropertySpec(name, required, defaultValue, true, description, path);
    }

    /**
     * The same setting, with its value a file or folder path: the host resolves a relative value
     * against the configuration file's folder before the engine sees it.
     */
    public PropertySpec asPath() {
        return new PropertySpec(name, required, defaultValue, sensitive, description, true);
    }
}
