package dev.sqlguard.domain.port;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;

/**
 * The flows of base-column values into one expression, each kept once: flows the policy would
 * decide alike (the same column through the same first non-total step) are one. A validator that
 * tracks flows bounds them here, so that a statement copying values through many levels is refused
 * before it exhausts memory.
 */
public final class DistinctFlows {
    /** Flows kept per value at most; a statement that needs more is refused as too complex. */
    public static final int MAX_FLOWS = 4_096;

    private DistinctFlows() {
    }

    /**
     * The first flow of each key, in order.
     *
     * @param key what makes two flows alike: their column and their first non-total step
     * @throws GuardException QUERY_TOO_COMPLEX past {@link #MAX_FLOWS} distinct flows
     */
    public static <F> List<F> of(List<F> flows, Function<F, ?> key) {
        if (flows.size() <= 1) {
            return List.copyOf(flows);
        }
        Map<Object, F> unique = new LinkedHashMap<>();
        for (F flow : flows) {
            unique.putIfAbsent(key.apply(flow), flow);
        }
        if (unique.size() > MAX_FLOWS) {
            throw new GuardException(ErrorCode.QUERY_TOO_COMPLEX, "The query combines too many columns to check.");
        }
        return List.copyOf(unique.values());
    }
}
