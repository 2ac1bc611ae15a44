package dev.sqlguard.llm;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.llm.internal.Backoff;
import dev.sqlguard.llm.internal.BoundedBody;
import dev.sqlguard.llm.internal.ChatCompletionsJson;
import dev.sqlguard.llm.internal.Sleeper;
import dev.sqlguard.ports.model.ModelPort;
import dev.sqlguard.ports.model.ModelReply;
import dev.sqlguard.ports.model.ModelRequest;

/**
 * The model port for any OpenAI-compatible chat-completions endpoint with tool calling (OpenAI,
 * vLLM, Ollama, the llama.cpp server, LM Studio).
 *
 * <p>One {@link #complete} call sends {@code POST {baseUrl}/chat/completions} and retries, with
 * exponential backoff and jitter, on HTTP 408, 429 and 5xx (a {@code Retry-After} in seconds is
 * honoured up to {@code maxBackoff}) and on network failures before a reply (refused or timed-out
 * connections, resets). It never retries other 4xx replies nor a request that ran past
 * {@code requestTimeout} (a slow model would only be asked again to be slow). Redirects are not
 * followed, so the API key is only ever sent to the configured host.
 *
 * <p>Every failure is a {@link GuardException} with {@code MODEL_UNAVAILABLE} (or {@code CANCELLED}
 * when the calling thread is interrupted) and a message that holds no URL, key or response body.
 * Instances are thread-safe.
 */
public final class OpenAiCompatibleModel implements ModelPort {
    /** Replies longer than this are refused. */
    static final int MAX_REPLY_BYTES = 16 * 1024 * 1024;

    private final ModelSettings settings;
    private final HttpClient client;
    private final ChatCompletionsJson json = new ChatCompletionsJson(new ObjectMapper());
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final int maxReplyBytes;

    public OpenAiCompatibleModel(ModelSettings settings) {
        this(settings, Sleeper.THREAD, () -> ThreadLocalRandom.current().nextDouble());
    }

    /** For tests: {@code sleeper} replaces the waits between attempts, {@code random} the jitter. */
    OpenAiCompatibleModel(ModelSettings settings, Sleeper sleeper, DoubleSupplier random) {
        this(settings, sleeper, random, MAX_REPLY_BYTES);
    }

    OpenAiCompatibleModel(ModelSettings settings, Sleeper sleeper, DoubleSupplier random, int maxReplyBytes) {
        if (maxReplyBytes < 1) {
            throw new IllegalArgumentException("maxReplyBytes must be positive");
        }
        this.maxReplyBytes = maxReplyBytes;
        this.settings = requireNonNull(settings, "settings is null");
        this.sleeper = requireNonNull(sleeper, "sleeper is null");
        this.backoff = new Backoff(settings.initialBackoff(), settings.maxBackoff(), random);
        this.client = HttpClient.newBuilder()
                .connectTimeout(settings.connectTimeout())
                .followRedirects(HttpClient.Redirect.NEVER)
                .version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    public ModelSettings settings() {
        return settings;
    }

    @Override
    public ModelReply complete(ModelRequest request) {
        requireNonNull(request, "request is null");
        byte[] body = json.requestBody(settings.model(), request, settings.temperature());
        HttpRequest http = httpRequest(body);
        // ids for tool calls that come without one: unique per turn, identical for the same reply
        String idPrefix = "call_" + request.messages().size() + "_";
        Failure last = null;
        for (int attempt = 0; ; attempt++) {
            if (last != null) {
                pause(backoff.delay(attempt - 1, last.retryAfter()));
            }
            Outcome outcome = send(http);
            if (outcome.failure() != null) {
                last = outcome.failure();
            } else {
                HttpResponse<byte[]> response = outcome.response();
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    if (response.body() == null) {
                        throw new GuardException(ErrorCode.MODEL_UNAVAILABLE,
                                "The model endpoint sent a reply larger than " + maxReplyBytes + " bytes.");
                    }
                    return json.reply(response.body(), idPrefix);
                }
                if (status != 408 && status != 429 && (status < 500 || status > 599)) {
                    throw refused(status);
                }
                last = new Failure(status, "", Backoff.parseRetryAfter(response.headers().firstValue("Retry-After")), null);
            }
            if (attempt >= settings.maxRetries()) {
                throw exhausted(last, attempt + 1);
            }
        }
    }

    private HttpRequest httpRequest(byte[] body) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(settings.chatCompletionsUri())
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "sqlguard")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        settings.apiKey().ifPresent(key -> builder.header("Authorization", "Bearer " + key));
        return builder.build();
    }

    /** One attempt: a response, or a network failure worth retrying; other failures throw. */
    private Outcome send(HttpRequest http) {
        CompletableFuture<HttpResponse<byte[]>> future = client.sendAsync(http, BoundedBody.handler(maxReplyBytes));
        try {
            return new Outcome(future.get(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS), null);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timedOut(e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new GuardException(ErrorCode.CANCELLED, "The model request was interrupted.");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (has(cause, HttpConnectTimeoutException.class)) {
                return new Outcome(null, new Failure(0, "the connection timed out", Optional.empty(), cause));
            }
            if (has(cause, HttpTimeoutException.class)) {
                throw timedOut(cause);
            }
            if (has(cause, ConnectException.class)) {
                return new Outcome(null, new Failure(0, "the connection was refused or the host is unknown", Optional.empty(), cause));
            }
            if (has(cause, IOException.class)) {
                return new Outcome(null, new Failure(0, "the connection failed", Optional.empty(), cause));
            }
            throw new GuardException(ErrorCode.MODEL_UNAVAILABLE, "The model request failed.", cause);
        }
    }

    private void pause(Duration delay) {
        try {
            sleeper.sleep(delay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GuardException(ErrorCode.CANCELLED, "The model request was interrupted.");
        }
    }

    private GuardException timedOut(Throwable cause) {
        return new GuardException(ErrorCode.MODEL_UNAVAILABLE,
                "The model endpoint did not reply within " + human(settings.requestTimeout()) + " (requestTimeout).", cause);
    }

    private GuardException refused(int status) {
        String message;
        if (status == 401 || status == 403) {
            message = settings.apiKey().isPresent()
                    ? "The model endpoint refused the API key (HTTP " + status + "); check " + ModelSettings.ENV_API_KEY + " or model.apiKey."
                    : "The model endpoint requires an API key (HTTP " + status + "); set " + ModelSettings.ENV_API_KEY + " or model.apiKey.";
        } else if (status == 404) {
            message = "The model endpoint answered HTTP 404; check that the base URL ends with the API prefix (often /v1) and the model name.";
        } else if (status >= 300 && status < 400) {
            message = "The model endpoint answered with a redirect (HTTP " + status + "); set the base URL to the final address.";
        } else {
            message = "The model endpoint refused the request (HTTP " + status + "); check the model name and that it supports tool calling.";
        }
        return new GuardException(ErrorCode.MODEL_UNAVAILABLE, message);
    }

    private static GuardException exhausted(Failure failure, int attempts) {
        String tries = attempts == 1 ? "1 attempt" : attempts + " attempts";
        String message;
        if (failure.status() == 0) {
            message = "The model endpoint could not be reached (" + failure.what() + ") after " + tries
                    + "; check the base URL and that the server is running.";
        } else if (failure.status() == 429) {
            message = "The model endpoint kept refusing requests as too many (HTTP 429) after " + tries + "; try again later.";
        } else {
            message = "The model endpoint kept failing (HTTP " + failure.status() + ") after " + tries + "; try again later.";
        }
        return new GuardException(ErrorCode.MODEL_UNAVAILABLE, message, failure.cause());
    }

    private static boolean has(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    private static String human(Duration d) {
        return d.toMillis() < 1000 || d.toMillis() % 1000 != 0 ? d.toMillis() + " ms" : d.toSeconds() + " s";
    }

    /** A failed attempt: an HTTP status (0 for a network failure) and what went wrong. */
    private record Failure(int status, String what, Optional<Duration> retryAfter, Throwable cause) {
    }

    private record Outcome(HttpResponse<byte[]> response, Failure failure) {
    }

    @Override
    public String toString() {
        return "OpenAiCompatibleModel[" + settings + "]";
    }
}
