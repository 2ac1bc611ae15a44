package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sqlguard.app.fake.CloseProbe;
import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.app.fake.FakeGuard;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.QueryRequest;
import dev.sqlguard.domain.QueryService;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

/** The facade's one entry for the layers built on it: masked as {@link SqlGuard#query}, waited for by close. */
class GuardedCallsTest {
    private final List<AuditEvent> events = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aCallThroughTheEntryIsMaskedAsTheFacadesOwn() {
        try (SqlGuard guard = FakeGuard.withSecret(events::add)) {
            GuardedPath path = guard.guardedPath(List.of("s"));
            ToolResult leaked = path.calls().query(path.sources().get(0).engine(), QueryRequest.of("s", "SELECT leak"));
            assertThat(leaked.error().orElseThrow().message()).isEqualTo("Login with **** was refused.")
                    .isEqualTo(guard.query("s", "SELECT leak").error().orElseThrow().message());
            assertThat(SqlGuard.toJson(leaked)).doesNotContain(FakeGuard.SECRET);

            ToolResult refused = path.calls().reject("r-1", "s", "SELECT 1",
                    new GuardException(ErrorCode.INVALID_ARGUMENT, "bad " + FakeGuard.SECRET));
            assertThat(refused.error().orElseThrow().message()).isEqualTo("bad ****");
        }
        assertThat(events).extracting(AuditEvent::verdict).containsExactly(ToolStatus.ERROR, ToolStatus.ERROR, ToolStatus.REJECTED);
    }

    @Test
    void aBareEntryDoesNotMaskWhatItDoesNotKnow() {
        // the proof above can fail: an entry on a use case alone knows no secret
        try (SqlGuard guard = FakeGuard.withSecret(events::add)) {
            GuardedPath path = guard.guardedPath(List.of("s"));
            GuardedCalls bare = GuardedCalls.over(new QueryService(events::add), engine -> engine.policy());
            ToolResult leaked = bare.query(path.sources().get(0).engine(), QueryRequest.of("s", "SELECT leak"));
            assertThat(leaked.error().orElseThrow().message()).contains(FakeGuard.SECRET);
        }
    }

    @Test
    void closeWaitsForACallInFlightThroughTheEntry() throws InterruptedException {
        SqlGuard guard = FakeGuard.twoSources(events::add);
        GuardedPath path = guard.guardedPath(List.of("claims"));
        ToolResult result = CloseProbe.closeDuring(guard, "entry",
                () -> path.calls().query(path.sources().get(0).engine(), QueryRequest.of("claims", "SELECT hold_entry FROM t")));
        assertThat(result.status()).isEqualTo(ToolStatus.OK);
        assertThat(events).extracting(AuditEvent::verdict).containsExactly(ToolStatus.OK);
    }

    @Test
    void aCallAfterCloseRunsNothingAndSaysSo() {
        GuardedPath path;
        try (SqlGuard guard = FakeGuard.twoSources(events::add)) {
            path = guard.guardedPath(List.of("claims"));
        }
        int created = FakeEngineFactory.CREATED.get();
        ToolResult late = path.calls().query(path.sources().get(0).engine(), QueryRequest.of("claims", "SELECT n FROM t"));
        assertThat(late.status()).isEqualTo(ToolStatus.ERROR);
        assertThat(late.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
        assertThat(FakeEngineFactory.CREATED.get()).isEqualTo(created);
        assertThat(events).as("the audit sink is closed: nothing more is recorded").isEmpty();
    }
}
