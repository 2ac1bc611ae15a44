package dev.sqlguard.app.internal.wiring;

import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.sqlguard.app.SqlGuardConfig;
import dev.sqlguard.app.SqlGuardConfig.SourceConfig;

/**
 * Replaces every known secret value (sensitive engine properties, the model API key) with
 * {@code ****} in text that leaves the process: error messages and log lines. A second net behind
 * messages that are built without values in the first place.
 */
public final class SecretMasker {
    /** Shorter values are not masked: they would garble ordinary words. */
    static final int MIN_LENGTH = 4;

    private final List<String> secrets;

    private SecretMasker(Set<String> secrets) {
        this.secrets = secrets.stream()
                .filter(s -> s.length() >= MIN_LENGTH)
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }

    public static SecretMasker of(SqlGuardConfig config) {
        Set<String> values = new LinkedHashSet<>();
        for (SourceConfig source : config.sources().values()) {
            source.sensitiveProperties().forEach(name -> {
                String value = source.properties().get(name);
                if (value != null) {
                    values.add(value);
                }
            });
        }
        config.model().ifPresent(model -> model.sensitiveSettings().forEach(name -> {
            String value = model.settings().get(name);
            if (value != null) {
                values.add(value);
            }
        }));
        return new SecretMasker(values);
    }

    public String mask(String text) {
        if (text == null || secrets.isEmpty()) {
            return text;
        }
        String out = text;
        for (String secret : secrets) {
            out = out.replace(secret, "****");
        }
        return out;
    }
}
