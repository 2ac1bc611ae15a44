package dev.sqlguard.ports.model;

/**
 * A chat model with tool calling. The adapter for OpenAI-compatible endpoints lives in
 * {@code adapter-llm}; tests use a fake.
 */
public interface ModelPort {
    /**
     * Sends the conversation and the tool specs; returns the model's next message.
     *
     * @throws dev.sqlguard.domain.GuardException with {@code MODEL_UNAVAILABLE} when the endpoint
     *     cannot be reached or keeps failing after retries
     */
    ModelReply complete(ModelRequest request);
}
