package dev.sqlguard.llm;

import java.util.Map;
import java.util.Set;

import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelPortFactory;

/**
 * Builds {@link OpenAiCompatibleModel}s; registered for {@link java.util.ServiceLoader} under the
 * name {@value #NAME}. Settings are {@link ModelSettings#KEYS}; {@code baseUrl}, {@code model} and
 * {@code apiKey} fall back to {@code SQLGUARD_MODEL_BASE_URL}, {@code SQLGUARD_MODEL} and
 * {@code SQLGUARD_MODEL_API_KEY}.
 */
public final class OpenAiCompatibleModelFactory implements ModelPortFactory {
    public static final String NAME = "openai";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ModelPort create(Map<String, String> settings, Map<String, String> environment) {
        return new OpenAiCompatibleModel(ModelSettings.from(settings, environment));
    }

    @Override
    public Set<String> sensitivePropertyNames() {
        return Set.of("apiKey");
    }

    @Override
    public Set<String> propertyNames() {
        return ModelSettings.KEYS;
    }
}
