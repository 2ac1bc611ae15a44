package dev.sqlguard.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.sqlguard.app.fake.FakeEngineFactory;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardrailPolicy;
import dev.sqlguard.domain.Limits;
import dev.sqlguard.domain.ToolResult;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;
import dev.sqlguard.ports.Engine;
import dev.sqlguard.ports.EngineConfig;
import dev.sqlguard.ports.EngineContext;

/**
 * Issue 26, the start phase: the first call on a fresh embedded SqlGuard opens the engine inside
 * the call's own time. An engine that takes longer to start than the call's limit answers the call
 * within the limit plus one second ({@code ENGINE_UNAVAILABLE}, retryable, audited, with
 * {@code elapsed_ms} from the moment the call was accepted), and the start goes on for the next call.
 * Before, the call waited for the whole start (MariaDB: 11.1 s on a 5 s limit, reporting 2,893 ms).
 */
class SqlGuardDeadlineTest {
    /** A fake engine whose start waits until {@code release} opens. */
    static final class GatedStart extends FakeEngineFactory {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        GatedStart() {
            super("gated");
        }

        @Override
        public Engine create(EngineConfig config, EngineContext context) {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return super.create(config, context);
        }
    }

    @Test
    @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSlowStartIsPartOfTheCallAndAnswersWithinItsLimit() throws Exception {
        GatedStart factory = new GatedStart();
        List<AuditEvent> events = new CopyOnWriteArrayList<>();
        Duration limit = Duration.ofSeconds(1);
        GuardrailPolicy policy = GuardrailPolicy.defaults().withLimits(Limits.defaults().withTimeout(limit));
        try (SqlGuard guard = SqlGuard.builder().engine(factory).source("s", "gated", Map.of(), policy)
                .auditSink(events::add).build()) {
            for (int i = 0; i < 2; i++) { // the first call starts the engine, the second finds the start still running
                long started = System.nanoTime();
                ToolResult r = guard.query("s", "SELECT n FROM t");
                long tookMs = (System.nanoTime() - started) / 1_000_000;
                assertThat(tookMs).as("answered after %d ms", tookMs).isLessThanOrEqualTo(limit.toMillis() + 1_000);
                assertThat(r.status()).isEqualTo(ToolStatus.ERROR);
                assertThat(r.error().orElseThrow().code()).isEqualTo(ErrorCode.ENGINE_UNAVAILABLE);
                assertThat(r.error().orElseThrow().retryable()).isTrue();
                assertThat(r.elapsedMs()).as("elapsed_ms covers the wait for the start").isGreaterThanOrEqualTo(limit.toMillis() - 50)
                        .isLessThanOrEqualTo(tookMs);
            }
            assertThat(factory.entered.await(0, TimeUnit.SECONDS)).isTrue();
            assertThat(events).hasSize(2);
            factory.release.countDown();
            // once the start is done, the source serves, each call within its own limit
            ToolResult ok = guard.query("s", "SELECT n FROM t");
            for (int attempt = 0; attempt < 20 && ok.status() != ToolStatus.OK; attempt++) {
                Thread.sleep(100);
                ok = guard.query("s", "SELECT n FROM t");
            }
            assertThat(ok.status()).as("%s", ok.error()).isEqualTo(ToolStatus.OK);
        } finally {
            factory.release.countDown();
        }
    }
}
