package dev.sqlguard.domain.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.QueryPlan;
import dev.sqlguard.domain.QueryRequest;

class CachingValidatorTest {
    private final AtomicInteger validations = new AtomicInteger();

    /** One placeholder per '?', refuses text starting with DROP. */
    private final StatementValidator delegate = request -> {
        validations.incrementAndGet();
        if (request.sql().startsWith("DROP")) {
            throw new GuardException(ErrorCode.STATEMENT_NOT_ALLOWED);
        }
        int n = (int) request.sql().chars().filter(c -> c == '?').count();
        List<Object> placeholders = new ArrayList<>(Collections.nCopies(n, null));
        return new QueryPlan("s", request.sql(), "EXEC " + request.sql(), placeholders, Set.of(), Set.of(), Set.of(),
                List.of(), List.of(), Limits.defaults()).withParameters(request.params());
    };

    @Test
    void validatesEachTextOnceAndBindsEachRequestsParameters() {
        CachingValidator cache = new CachingValidator(delegate, 8);
        QueryPlan first = cache.validate(QueryRequest.of("s", "SELECT ? + ?", 1L, 2L));
        QueryPlan second = cache.validate(QueryRequest.of("s", "SELECT ? + ?", 3L, 4L));
        assertThat(validations).hasValue(1);
        assertThat(first.parameters()).containsExactly(1L, 2L);
        assertThat(second.parameters()).containsExactly(3L, 4L);
        assertThat(cache.size()).isEqualTo(1);
    }

    /** A parameterless plan is reused as it is; a plan with parameters gets a copy per request, never the last one's values. */
    @Test
    void aPlanWithoutParametersIsReusedAsItIs() {
        CachingValidator cache = new CachingValidator(delegate, 8);
        QueryPlan first = cache.validate(QueryRequest.of("s", "SELECT 1"));
        assertThat(cache.validate(QueryRequest.of("s", "SELECT 1"))).isSameAs(first);
        assertThat(first.parameters()).isEmpty();
        QueryPlan bound = cache.validate(QueryRequest.of("s", "SELECT ?", 1L));
        QueryPlan other = cache.validate(QueryRequest.of("s", "SELECT ?", 2L));
        assertThat(bound).isNotSameAs(other);
        assertThat(bound.parameters()).containsExactly(1L);
        assertThat(other.parameters()).containsExactly(2L);
        assertThat(bound.uses()).isEqualTo(other.uses());
    }

    @Test
    void aCachedPlanStillChecksTheParameterCount() {
        CachingValidator cache = new CachingValidator(delegate, 8);
        cache.validate(QueryRequest.of("s", "SELECT ?", 1L));
        assertThatThrownBy(() -> cache.validate(QueryRequest.of("s", "SELECT ?")))
                .isInstanceOfSatisfying(GuardException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PARAMETER_COUNT_MISMATCH));
    }

    @Test
    void refusalsAreNotCachedAndTheLeastRecentlyUsedPlanIsDropped() {
        CachingValidator cache = new CachingValidator(delegate, 2);
        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> cache.validate(QueryRequest.of("s", "DROP TABLE t"))).isInstanceOf(GuardException.class);
        }
        assertThat(validations).hasValue(2);
        cache.validate(QueryRequest.of("s", "SELECT 1"));
        cache.validate(QueryRequest.of("s", "SELECT 2"));
        cache.validate(QueryRequest.of("s", "SELECT 1"));
        cache.validate(QueryRequest.of("s", "SELECT 3"));
        assertThat(cache.size()).isEqualTo(2);
        int before = validations.get();
        cache.validate(QueryRequest.of("s", "SELECT 1"));
        assertThat(validations).hasValue(before);
        cache.validate(QueryRequest.of("s", "SELECT 2"));
        assertThat(validations).hasValue(before + 1);
        assertThatThrownBy(() -> new CachingValidator(delegate, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
