package dev.sqlguard.domain.port;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import dev.sqlguard.domain.Parameters;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;

/**
 * Reuses plans: a statement is checked once per SQL text and source, then bound to each request's
 * parameters. Refusals are not cached (they are cheap to repeat and carry no plan). Least recently
 * used plans are dropped past {@code capacity}. Thread-safe.
 */
public final class CachingValidator implements StatementValidator {
    /** Plans kept by default. */
    public static final int DEFAULT_CAPACITY = 256;

    private final StatementValidator delegate;
    private final Map<String, QueryPlan> plans;

    public CachingValidator(StatementValidator delegate, int capacity) {
        this.delegate = requireNonNull(delegate, "delegate is null");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.plans = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, QueryPlan> eldest) {
                return size() > capacity;
            }
        };
    }

    public CachingValidator(StatementValidator delegate) {
        this(delegate, DEFAULT_CAPACITY);
    }

    @Override
    public QueryPlan validate(QueryRequest request) {
        return validate(request, null);
    }

    /**
     * A cached plan is decided on again ({@code decision} runs on every call, once); a new one is decided
     * on by the delegate's two phases.
     */
    @Override
    public QueryPlan validate(QueryRequest request, Consumer<QueryPlan> decision) {
        QueryPlan plan;
        synchronized (plans) {
            plan = plans.get(request.sql());
        }
        if (plan == null) {
            plan = decision == null ? delegate.validate(request) : delegate.validate(request, decision);
            synchronized (plans) {
                plans.put(request.sql(), plan);
            }
        } else if (decision != null) {
            decision.accept(plan);
        }
        Parameters.requireCount(plan.parameters().size(), request.params().size());
        return plan.withParameters(request.params());
    }

    /** Plans currently cached. */
    public int size() {
        synchronized (plans) {
            return plans.size();
        }
    }
}
