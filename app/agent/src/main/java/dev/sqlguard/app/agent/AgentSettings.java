package dev.sqlguard.app.agent;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;

import dev.sqlguard.domain.verify.ClaimPolicy;

/**
 * The planner's bounds and outputs.
 *
 * @param maxTurns model replies at most per question
 * @param maxToolCalls tool calls at most per question
 * @param maxSqlRetries failed data-tool calls (REJECTED or ERROR) tolerated; one more ends the run
 * @param previewRows rows of each executed query kept in the response
 * @param chartDirectory where {@code plot_chart} writes PNG files
 * @param claimPolicy what an answer with unsupported numbers becomes
 */
public record AgentSettings(int maxTurns, int maxToolCalls, int maxSqlRetries, int previewRows, Path chartDirectory,
                            ClaimPolicy claimPolicy) {
    public static final int DEFAULT_MAX_TURNS = 8;
    public static final int DEFAULT_MAX_TOOL_CALLS = 12;
    public static final int DEFAULT_MAX_SQL_RETRIES = 3;
    public static final int DEFAULT_PREVIEW_ROWS = 20;

    public AgentSettings {
        requirePositive(maxTurns, "maxTurns", 100);
        requirePositive(maxToolCalls, "maxToolCalls", 1000);
        if (maxSqlRetries < 0 || maxSqlRetries > 100) {
            throw new IllegalArgumentException("maxSqlRetries must be between 0 and 100, was " + maxSqlRetries);
        }
        requirePositive(previewRows, "previewRows", 10_000);
        requireNonNull(chartDirectory, "chartDirectory is null");
        requireNonNull(claimPolicy, "claimPolicy is null");
    }

    /** Default bounds, charts in {@code chartDirectory}, policy FLAG. */
    public static AgentSettings defaults(Path chartDirectory) {
        return new AgentSettings(DEFAULT_MAX_TURNS, DEFAULT_MAX_TOOL_CALLS, DEFAULT_MAX_SQL_RETRIES, DEFAULT_PREVIEW_ROWS,
                chartDirectory, ClaimPolicy.FLAG);
    }

    public AgentSettings withMaxTurns(int value) {
        return new AgentSettings(value, maxToolCalls, maxSqlRetries, previewRows, chartDirectory, claimPolicy);
    }

    public AgentSettings withMaxToolCalls(int value) {
        return new AgentSettings(maxTurns, value, maxSqlRetries, previewRows, chartDirectory, claimPolicy);
    }

    public AgentSettings withMaxSqlRetries(int value) {
        return new AgentSettings(maxTurns, maxToolCalls, value, previewRows, chartDirectory, claimPolicy);
    }

    public AgentSettings withClaimPolicy(ClaimPolicy value) {
        return new AgentSettings(maxTurns, maxToolCalls, maxSqlRetries, previewRows, chartDirectory, value);
    }

    private static void requirePositive(int value, String name, int max) {
        if (value <= 0 || value > max) {
            throw new IllegalArgumentException(name + " must be between 1 and " + max + ", was " + value);
        }
    }
}
