package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.QueryPlan;

/**
 * What a {@link StatementValidator} that renders its own SQL does around its check, the same on every
 * such engine: it refuses to start without a table allowlist, and it turns whatever its parser or
 * renderer throws into a refusal with a stable code, so that no parser text reaches a caller.
 */
public final class Validation {
    private static final Logger LOG = Logger.getLogger(Validation.class.getName());

    private Validation() {
    }

    /**
     * @throws GuardException CONFIGURATION_ERROR when {@code policy} allows every table: a validator that
     *     renders its own SQL resolves names against the allowlisted tables only
     */
    public static void requireTableAllowlist(String sourceId, GuardrailPolicy policy) {
        if (!policy.tables().restricted()) {
            throw new GuardException(ErrorCode.CONFIGURATION_ERROR, "Source '" + sourceId + "' needs a table allowlist.");
        }
    }

    /**
     * The plan {@code check} makes of {@code sql}. A refusal passes unchanged; a stack overflow (an input
     * nested too deeply for the parser or the renderer) is {@code QUERY_TOO_COMPLEX}; any other failure
     * is {@code SYNTAX_ERROR} "The SQL could not be checked.", the failure kept as the cause (never shown)
     * and logged at FINE.
     *
     * @throws GuardException the refusal
     */
    public static QueryPlan checked(String sql, Function<String, QueryPlan> check) {
        requireNonNull(check, "check is null");
        try {
            return check.apply(sql);
        } catch (GuardException e) {
            throw e;
        } catch (StackOverflowError e) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX);
        } catch (RuntimeException e) {
            LOG.log(Level.FINE, "validator failed on an input", e);
            throw new GuardException(ErrorCode.SYNTAX_ERROR, "The SQL could not be checked.", e);
        }
    }
}
