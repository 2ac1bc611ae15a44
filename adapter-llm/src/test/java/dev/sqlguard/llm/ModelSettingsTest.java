package dev.sqlguard.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.llm.internal.Backoff;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelPortFactory;

class ModelSettingsTest {
    private static final Map<String, String> ENV = Map.of(
            "SQLGUARD_MODEL_BASE_URL", "http://localhost:11434/v1/",
            "SQLGUARD_MODEL", "qwen2.5:7b",
            "SQLGUARD_MODEL_API_KEY", "sk-env-key-123");

    private static void assertConfigError(Map<String, String> settings, Map<String, String> env, String... fragments) {
        assertThatThrownBy(() -> ModelSettings.from(settings, env))
                .isInstanceOfSatisfying(GuardException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR);
                    assertThat(e.safeMessage()).contains(fragments).doesNotContain("sk-env-key-123").doesNotContain("hunter2");
                });
    }

    @Test
    void readsTheEnvironmentWithDefaults() {
        ModelSettings s = ModelSettings.fromEnvironment(ENV);

        assertThat(s.baseUrl()).hasToString("http://localhost:11434/v1");
        assertThat(s.chatCompletionsUri()).hasToString("http://localhost:11434/v1/chat/completions");
        assertThat(s.model()).isEqualTo("qwen2.5:7b");
        assertThat(s.apiKey()).contains("sk-env-key-123");
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(s.maxRetries()).isEqualTo(3);
        assertThat(s.initialBackoff()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.temperature()).isEmpty();
    }

    @Test
    void settingsWinOverTheEnvironmentAndParseDurations() {
        Map<String, String> settings = Map.of("baseUrl", "https://api.example.test/v1", "model", "gpt-4o-mini",
                "requestTimeout", "45s", "connectTimeout", "500ms", "maxRetries", "5", "initialBackoff", "PT0.2S",
                "maxBackoff", "2m", "temperature", "0");

        ModelSettings s = ModelSettings.from(settings, ENV);

        assertThat(s.baseUrl()).hasToString("https://api.example.test/v1");
        assertThat(s.model()).isEqualTo("gpt-4o-mini");
        assertThat(s.apiKey()).as("apiKey falls back to the environment").contains("sk-env-key-123");
        assertThat(s.requestTimeout()).isEqualTo(Duration.ofSeconds(45));
        assertThat(s.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.maxRetries()).isEqualTo(5);
        assertThat(s.initialBackoff()).isEqualTo(Duration.ofMillis(200));
        assertThat(s.maxBackoff()).isEqualTo(Duration.ofMinutes(2));
        assertThat(s.temperature()).contains(0.0);
    }

    @Test
    void aBlankKeyMeansNoKey() {
        Map<String, String> env = new HashMap<>(ENV);
        env.put("SQLGUARD_MODEL_API_KEY", "  ");

        assertThat(ModelSettings.fromEnvironment(env).apiKey()).isEmpty();
    }

    @Test
    void toStringMasksTheKey() {
        ModelSettings s = ModelSettings.fromEnvironment(ENV);

        assertThat(s.toString()).doesNotContain("sk-env-key-123").contains("apiKey=****").contains("qwen2.5:7b");
        assertThat(new OpenAiCompatibleModel(s).toString()).doesNotContain("sk-env-key-123");
    }

    @Test
    void namesWhatIsMissing() {
        assertConfigError(Map.of(), Map.of("SQLGUARD_MODEL", "m"), "SQLGUARD_MODEL_BASE_URL", "model.baseUrl");
        assertConfigError(Map.of(), Map.of("SQLGUARD_MODEL_BASE_URL", "http://localhost:8080/v1"), "SQLGUARD_MODEL", "model.model");
    }

    @Test
    void refusesBadValuesWithClearMessages() {
        assertConfigError(Map.of("baseUrl", "ftp://host/v1"), ENV, "http or https");
        assertConfigError(Map.of("baseUrl", "http://user:hunter2@host/v1"), ENV, "must not contain credentials");
        assertConfigError(Map.of("baseUrl", "http://host/v1?key=hunter2"), ENV, "query");
        assertConfigError(Map.of("baseUrl", "http://ho st/hunter2"), ENV, "not a valid URL");
        assertConfigError(Map.of("requestTimeout", "soon"), ENV, "requestTimeout", "30s");
        assertConfigError(Map.of("requestTimeout", "0s"), ENV, "requestTimeout must be between");
        assertConfigError(Map.of("maxRetries", "11"), ENV, "maxRetries must be between 0 and 10");
        assertConfigError(Map.of("maxRetries", "three"), ENV, "maxRetries must be a whole number");
        assertConfigError(Map.of("initialBackoff", "10s", "maxBackoff", "1s"), ENV, "shorter than initialBackoff");
        assertConfigError(Map.of("temperature", "3"), ENV, "temperature must be between 0 and 2");
        assertConfigError(Map.of("apiKey", "hunter2\r\nX-Evil: 1"), ENV, "apiKey contains characters");
        assertConfigError(Map.of("apikey", "x"), ENV, "unknown model setting 'apikey'", "apiKey");
    }

    @Test
    void theFactoryIsFoundByServiceLoaderAndChecksSettings() {
        ModelPortFactory factory = ServiceLoader.load(ModelPortFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.name().equals("openai"))
                .findFirst().orElseThrow();

        ModelPort port = factory.create(Map.of(), ENV);

        assertThat(port).isInstanceOf(OpenAiCompatibleModel.class);
        assertThat(((OpenAiCompatibleModel) port).settings().model()).isEqualTo("qwen2.5:7b");
        assertThat(factory.sensitivePropertyNames()).containsExactly("apiKey");
        assertThat(factory.propertyNames()).contains("baseUrl", "model", "apiKey", "requestTimeout");
        assertThatThrownBy(() -> factory.create(Map.of("timeout", "1s"), ENV))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIGURATION_ERROR));
    }

    @Test
    void backoffDoublesWithJitterAndCaps() {
        Backoff low = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.0);
        Backoff high = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), () -> 0.999);

        assertThat(low.delay(0, Optional.empty())).isEqualTo(Duration.ofMillis(500));
        assertThat(low.delay(3, Optional.empty())).isEqualTo(Duration.ofSeconds(4));
        assertThat(high.delay(3, Optional.empty())).isBetween(Duration.ofMillis(7990), Duration.ofSeconds(8));
        assertThat(low.delay(10, Optional.empty())).isEqualTo(Duration.ofSeconds(15));
        assertThat(low.delay(100, Optional.empty())).isEqualTo(Duration.ofSeconds(15));
        assertThat(low.delay(0, Optional.of(Duration.ofSeconds(7)))).isEqualTo(Duration.ofSeconds(7));
        assertThat(low.delay(0, Optional.of(Duration.ofMinutes(5)))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void retryAfterAcceptsWholeSecondsOnly() {
        assertThat(Backoff.parseRetryAfter(Optional.of(" 12 "))).contains(Duration.ofSeconds(12));
        assertThat(Backoff.parseRetryAfter(Optional.of("Wed, 21 Oct 2026 07:28:00 GMT"))).isEmpty();
        assertThat(Backoff.parseRetryAfter(Optional.of("-1"))).isEmpty();
        assertThat(Backoff.parseRetryAfter(Optional.of("1.5"))).isEmpty();
        assertThat(Backoff.parseRetryAfter(Optional.empty())).isEmpty();
    }
}
