package dev.sqlguard.app;

/**
 * A configuration that cannot be used: a YAML syntax error, an unknown key, a bad value, a missing
 * environment variable, an unknown or duplicate engine. The message names the key path and, where
 * known, the file and line; it never contains the value of a secret.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message, null, false, false);
    }
}
