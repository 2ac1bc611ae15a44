package dev.sqlguard.llm;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The settings of one OpenAI-compatible chat-completions endpoint, checked once.
 *
 * <p>{@link #toString()} never prints the API key. The base URL may not carry credentials
 * ({@code user:pass@host}): the key belongs in {@code apiKey}, which is only ever sent as a
 * bearer token and never appears in a message.
 *
 * @param baseUrl the API root, e.g. {@code http://localhost:11434/v1}; requests go to
 *     {@code {baseUrl}/chat/completions}. Scheme http or https, no credentials, query or fragment;
 *     a trailing slash is removed
 * @param model the model name sent with every request
 * @param apiKey the bearer token, if the endpoint needs one
 * @param requestTimeout the longest wait for one complete reply (1 ms to 1 hour)
 * @param connectTimeout the longest wait for a connection (1 ms to 5 minutes)
 * @param maxRetries how many times a request is retried after a 408, 429, 5xx or network failure (0 to 10)
 * @param initialBackoff the wait before the first retry; it doubles with each retry (up to 10 minutes)
 * @param maxBackoff the longest wait between two attempts, also the cap on a server's
 *     {@code Retry-After} (at least {@code initialBackoff}, up to 10 minutes)
 * @param temperature the sampling temperature sent to the endpoint (0 to 2), or none to use the
 *     endpoint's default
 */
public record ModelSettings(
        URI baseUrl,
        String model,
        Optional<String> apiKey,
        Duration requestTimeout,
        Duration connectTimeout,
        int maxRetries,
        Duration initialBackoff,
        Duration maxBackoff,
        Optional<Double> temperature) {

    /** Environment variable for the base URL. */
    public static final String ENV_BASE_URL = "SQLGUARD_MODEL_BASE_URL";
    /** Environment variable for the model name. */
    public static final String ENV_MODEL = "SQLGUARD_MODEL";
    /** Environment variable for the API key. */
    public static final String ENV_API_KEY = "SQLGUARD_MODEL_API_KEY";

    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(120);
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_MAX_RETRIES = 3;
    public static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);
    public static final Duration DEFAULT_MAX_BACKOFF = Duration.ofSeconds(30);

    /** The setting keys {@link #from(Map, Map)} understands. */
    public static final Set<String> KEYS = Set.of("baseUrl", "model", "apiKey", "requestTimeout", "connectTimeout",
            "maxRetries", "initialBackoff", "maxBackoff", "temperature");

    private static final Duration MAX_REQUEST_TIMEOUT = Duration.ofHours(1);
    private static final Duration MAX_CONNECT_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration MAX_BACKOFF_LIMIT = Duration.ofMinutes(10);
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)");

    public ModelSettings {
        requireNonNull(baseUrl, "baseUrl is null");
        requireNonNull(model, "model is null");
        requireNonNull(apiKey, "apiKey is null");
        requireNonNull(requestTimeout, "requestTimeout is null");
        requireNonNull(connectTimeout, "connectTimeout is null");
        requireNonNull(initialBackoff, "initialBackoff is null");
        requireNonNull(maxBackoff, "maxBackoff is null");
        requireNonNull(temperature, "temperature is null");
        baseUrl = checkBaseUrl(baseUrl);
        model = model.strip();
        if (model.isEmpty()) {
            throw new IllegalArgumentException("model is empty: set the model name (SQLGUARD_MODEL or model.model)");
        }
        if (model.length() > 200 || model.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new IllegalArgumentException("model must be at most 200 printable characters");
        }
        apiKey = apiKey.map(String::strip).filter(k -> !k.isEmpty());
        if (apiKey.isPresent() && !apiKey.get().chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw new IllegalArgumentException("apiKey contains characters that an HTTP header cannot carry (spaces, control or non-ASCII characters)");
        }
        checkRange("requestTimeout", requestTimeout, Duration.ofMillis(1), MAX_REQUEST_TIMEOUT);
        checkRange("connectTimeout", connectTimeout, Duration.ofMillis(1), MAX_CONNECT_TIMEOUT);
        if (maxRetries < 0 || maxRetries > 10) {
            throw new IllegalArgumentException("maxRetries must be between 0 and 10, was " + maxRetries);
        }
        checkRange("initialBackoff", initialBackoff, Duration.ZERO, MAX_BACKOFF_LIMIT);
        checkRange("maxBackoff", maxBackoff, Duration.ZERO, MAX_BACKOFF_LIMIT);
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff (" + maxBackoff + ") is shorter than initialBackoff (" + initialBackoff + ")");
        }
        if (temperature.isPresent()) {
            double t = temperature.get();
            if (!(t >= 0.0 && t <= 2.0)) {
                throw new IllegalArgumentException("temperature must be between 0 and 2, was " + t);
            }
        }
    }

    /** Settings with the default timeouts, retries and backoff. */
    public static ModelSettings of(String baseUrl, String model, Optional<String> apiKey) {
        return new ModelSettings(parseUri(requireNonNull(baseUrl, "baseUrl is null")), model, apiKey,
                DEFAULT_REQUEST_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_RETRIES, DEFAULT_INITIAL_BACKOFF,
                DEFAULT_MAX_BACKOFF, Optional.empty());
    }

    public ModelSettings withTimeouts(Duration request, Duration connect) {
        return new ModelSettings(baseUrl, model, apiKey, request, connect, maxRetries, initialBackoff, maxBackoff, temperature);
    }

    public ModelSettings withRetries(int retries, Duration initial, Duration max) {
        return new ModelSettings(baseUrl, model, apiKey, requestTimeout, connectTimeout, retries, initial, max, temperature);
    }

    public ModelSettings withTemperature(double value) {
        return new ModelSettings(baseUrl, model, apiKey, requestTimeout, connectTimeout, maxRetries, initialBackoff,
                maxBackoff, Optional.of(value));
    }

    /**
     * Reads {@code SQLGUARD_MODEL_BASE_URL}, {@code SQLGUARD_MODEL} and {@code SQLGUARD_MODEL_API_KEY}
     * (optional) from {@code environment}; everything else takes its default.
     *
     * @throws GuardException {@code CONFIGURATION_ERROR} naming the missing or bad variable
     */
    public static ModelSettings fromEnvironment(Map<String, String> environment) {
        return from(Map.of(), environment);
    }

    /**
     * Reads the {@code model:} settings ({@link #KEYS}); {@code baseUrl}, {@code model} and
     * {@code apiKey} fall back to the environment variables when a setting is absent or blank.
     * Durations are written {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT30S}).
     *
     * @throws GuardException {@code CONFIGURATION_ERROR} naming the unknown, missing or bad setting;
     *     the message never contains the API key
     */
    public static ModelSettings from(Map<String, String> settings, Map<String, String> environment) {
        requireNonNull(settings, "settings is null");
        requireNonNull(environment, "environment is null");
        for (String key : new TreeSet<>(settings.keySet())) {
            if (!KEYS.contains(key)) {
                throw configError("unknown model setting '" + key + "'; known: " + new TreeSet<>(KEYS));
            }
        }
        String baseUrl = pick(settings, "baseUrl", environment, ENV_BASE_URL)
                .orElseThrow(() -> configError("no model endpoint configured: set model.baseUrl or " + ENV_BASE_URL));
        String model = pick(settings, "model", environment, ENV_MODEL)
                .orElseThrow(() -> configError("no model name configured: set model.model or " + ENV_MODEL));
        Optional<String> apiKey = pick(settings, "apiKey", environment, ENV_API_KEY);
        try {
            return new ModelSettings(parseUri(baseUrl), model, apiKey,
                    duration(settings, "requestTimeout", DEFAULT_REQUEST_TIMEOUT),
                    duration(settings, "connectTimeout", DEFAULT_CONNECT_TIMEOUT),
                    integer(settings, "maxRetries", DEFAULT_MAX_RETRIES),
                    duration(settings, "initialBackoff", DEFAULT_INITIAL_BACKOFF),
                    duration(settings, "maxBackoff", DEFAULT_MAX_BACKOFF),
                    decimal(settings, "temperature"));
        } catch (IllegalArgumentException e) {
            throw configError("model settings: " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "ModelSettings[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey.isPresent() ? "****" : "(none)")
                + ", requestTimeout=" + requestTimeout + ", connectTimeout=" + connectTimeout + ", maxRetries=" + maxRetries
                + ", initialBackoff=" + initialBackoff + ", maxBackoff=" + maxBackoff
                + ", temperature=" + temperature.map(String::valueOf).orElse("(default)") + "]";
    }

    /** The chat-completions address. */
    URI chatCompletionsUri() {
        return URI.create(baseUrl + "/chat/completions");
    }

    private static GuardException configError(String message) {
        return new GuardException(ErrorCode.CONFIGURATION_ERROR, message + ".");
    }

    private static Optional<String> pick(Map<String, String> settings, String key, Map<String, String> env, String envName) {
        Optional<String> own = Optional.ofNullable(settings.get(key)).map(String::strip).filter(v -> !v.isEmpty());
        return own.isPresent() ? own : Optional.ofNullable(env.get(envName)).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static URI parseUri(String text) {
        try {
            return new URI(text.strip());
        } catch (URISyntaxException e) {
            // never echo the text: it may hold credentials
            throw new IllegalArgumentException("baseUrl is not a valid URL");
        }
    }

    private static URI checkBaseUrl(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("baseUrl must use the http or https scheme");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("baseUrl must not contain credentials; put the key in apiKey (" + ENV_API_KEY + ")");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new IllegalArgumentException("baseUrl has no host");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("baseUrl must not have a query or fragment");
        }
        String text = uri.toString();
        while (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        return URI.create(text);
    }

    private static void checkRange(String name, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    private static Duration duration(Map<String, String> settings, String key, Duration defaultValue) {
        String text = settings.get(key);
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        String t = text.strip();
        Matcher m = DURATION.matcher(t.toLowerCase(Locale.ROOT));
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
        try {
            return Duration.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(key + " must be a duration such as 500ms, 30s, 2m, 1h or PT30S");
        }
    }

    private static int integer(Map<String, String> settings, String key, int defaultValue) {
        String text = settings.get(key);
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number");
        }
    }

    private static Optional<Double> decimal(Map<String, String> settings, String key) {
        String text = settings.get(key);
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Double.parseDouble(text.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number");
        }
    }
}
