package dev.sqlguard.app.internal.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class StdioLifecycleTest {
    private final Queue<String> warnings = new ConcurrentLinkedQueue<>();
    private final StdioLifecycle stdio = new StdioLifecycle(warnings::add);

    private static InputStream input(String... lines) {
        return new ByteArrayInputStream((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void linesThatAreNotJsonObjectsAreDroppedWithAWarningAndNeverShown() {
        InputStream in = stdio.input(input(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "garbage with a secret sk-123",
                "",
                "[1,2]",
                "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{}}"));

        assertThat(readAll(in)).isEqualTo("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{}}\n");
        assertThat(warnings).hasSize(2).allSatisfy(w -> assertThat(w).doesNotContain("sk-123").contains("dropped"));
    }

    @Test
    void theEndOfInputWaitsUntilEveryRequestHasItsAnswer() throws Exception {
        InputStream in = stdio.input(input(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/call\"}"));
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream out = stdio.output(sink);
        Queue<String> events = new ConcurrentLinkedQueue<>();
        Thread reader = new Thread(() -> {
            readAll(in);
            events.add("end of input");
        });
        reader.start();

        // the reader has read both requests and now holds the end of input back
        Thread.State state;
        while ((state = reader.getState()) != Thread.State.TIMED_WAITING && state != Thread.State.TERMINATED) {
            Thread.onSpinWait();
        }
        assertThat(state).as("the reader waits for the answers").isEqualTo(Thread.State.TIMED_WAITING);
        out.write("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8));
        events.add("answer 1");
        out.write("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{}}".getBytes(StandardCharsets.UTF_8));
        events.add("answer 2"); // complete with its line end, just below
        out.write('\n');
        stdio.awaitEnd();
        reader.join();

        assertThat(events).containsExactly("answer 1", "answer 2", "end of input");
        assertThat(sink.toString(StandardCharsets.UTF_8)).hasLineCount(2);
        assertThat(List.copyOf(warnings)).isEmpty();
    }
}
