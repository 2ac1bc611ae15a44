package dev.sqlguard.app.internal.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class McpProcessTest {
    @Test
    void theDefaultAuditFileIsInTheXdgStateFolderElseUnderHome() {
        assertThat(McpProcess.defaultAuditFile(Map.of("XDG_STATE_HOME", "/srv/state", "HOME", "/home/u")))
                .isEqualTo(Path.of("/srv/state/sqlguard/audit.jsonl"));
        assertThat(McpProcess.defaultAuditFile(Map.of("HOME", "/home/u")))
                .isEqualTo(Path.of("/home/u/.local/state/sqlguard/audit.jsonl"));
        assertThat(McpProcess.defaultAuditFile(Map.of("XDG_STATE_HOME", "relative/state", "HOME", "/home/u")))
                .as("a relative XDG_STATE_HOME is ignored, as the XDG spec says")
                .isEqualTo(Path.of("/home/u/.local/state/sqlguard/audit.jsonl"));
    }

    @Test
    @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aCloseThatHangsDoesNotHoldTheCaller() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        assertThat(McpProcess.closeWithin(never::await, Duration.ofMillis(50))).isFalse();
        assertThat(McpProcess.closeWithin(() -> { }, Duration.ofSeconds(20))).isTrue();
    }
}
