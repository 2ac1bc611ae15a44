package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Watches the stdio streams of an MCP server so that it can stop cleanly. The SDK's stdio transport
 * closes the session as soon as it reads the end of input, dropping the answers to requests still
 * running; so the end of input is held back from it until every request read has been answered
 * (or {@link #MAX_DRAIN} has passed). Requests are the input lines that are JSON objects with a
 * {@code method} and an {@code id}; answers are the output lines. A client that closes stdin right
 * after its last request therefore still gets every answer.
 */
public final class StdioLifecycle {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_TRACKED_LINE = 1 << 20;
    /** Longest wait for outstanding answers once the input has ended (a hang guard). */
    public static final java.time.Duration MAX_DRAIN = java.time.Duration.ofMinutes(10);

    private final Object lock = new Object();
    private long requests;
    private long answers;
    private boolean ended;

    /** {@code in}, counting requests and noticing its end. */
    public InputStream input(InputStream in) {
        return new Input(requireNonNull(in, "in is null"));
    }

    /** {@code out}, counting the lines written. */
    public OutputStream output(OutputStream out) {
        return new Output(requireNonNull(out, "out is null"));
    }

    /** Blocks until the input has ended (as the server sees it: after the outstanding answers). */
    public void awaitEnd() throws InterruptedException {
        synchronized (lock) {
            while (!ended) {
                lock.wait();
            }
        }
    }

    /** Holds the end of input until every request read has an answer. */
    private void drain() {
        long deadline = System.nanoTime() + MAX_DRAIN.toNanos();
        synchronized (lock) {
            try {
                while (answers < requests) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return;
                    }
                    java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(lock, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void request() {
        synchronized (lock) {
            requests++;
        }
    }

    private void end() {
        synchronized (lock) {
            ended = true;
            lock.notifyAll();
        }
    }

    private void answered() {
        synchronized (lock) {
            answers++;
            lock.notifyAll();
        }
    }

    private final class Input extends FilterInputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();
        private boolean overflow;

        Input(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            try {
                n = super.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                end();
                throw e;
            }
            if (n < 0) {
                drain();
                end();
                return n;
            }
            synchronized (this) {
                for (int i = off; i < off + n; i++) {
                    if (b[i] == '\n') {
                        countLine();
                    } else if (line.size() < MAX_TRACKED_LINE) {
                        line.write(b[i]);
                    } else {
                        overflow = true;
                    }
                }
            }
            return n;
        }

        private void countLine() {
            if (!overflow && line.size() > 0) {
                try {
                    JsonNode message = JSON.readTree(line.toByteArray());
                    if (message != null && message.isObject() && message.has("method") && message.has("id")) {
                        request();
                    }
                } catch (IOException e) {
                    // not a message: no answer is owed
                }
            }
            line.reset();
            overflow = false;
        }
    }

    private final class Output extends FilterOutputStream {
        Output(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            if (b == '\n') {
                out.flush();
                answered();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            int newlines = 0;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    newlines++;
                }
            }
            out.write(b, off, len);
            if (newlines > 0) {
                out.flush();
                for (int i = 0; i < newlines; i++) {
                    answered();
                }
            }
        }
    }
}
