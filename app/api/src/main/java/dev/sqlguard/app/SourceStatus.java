package dev.sqlguard.app;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

import dev.sqlguard.domain.ToolError;

/**
 * Whether a configured source is served now.
 *
 * @param id the source id
 * @param engine the engine name it is configured with
 * @param error why its engine is not open, when the last attempt to open it failed: {@code
 *     ENGINE_UNAVAILABLE} (retryable; the source is retried in the background) or {@code
 *     CONFIGURATION_ERROR}
 */
public record SourceStatus(String id, String engine, Optional<ToolError> error) {
    public SourceStatus {
        requireNonNull(id, "id is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(error, "error is null");
    }

    /** Whether calls on the source can run now (as far as the last attempt to open it showed). */
    public boolean available() {
        return error.isEmpty();
    }
}
