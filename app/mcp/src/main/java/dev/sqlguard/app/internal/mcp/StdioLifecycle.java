package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.BufferedInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Watches the stdio streams of an MCP server so that it can stop cleanly. The SDK's stdio transport
 * closes the session as soon as it reads the end of input, dropping the answers to requests still
 * running; so the end of input is held back from it until every request read has been answered
 * (or {@link #MAX_DRAIN} has passed). Requests are the input lines that are JSON objects with a
 * {@code method} and an {@code id}; answers are the output lines. A client that closes stdin right
 * after its last request therefore still gets every answer. An input line that is not a JSON
 * object is dropped with a warning instead of reaching the SDK, whose transport would end the
 * session on it.
 */
public final class StdioLifecycle {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Longest input line passed on (tool arguments are refused beyond 256 KiB anyway). */
    static final int MAX_LINE = 16 << 20;
    /** Longest wait for outstanding answers once the input has ended (a hang guard). */
    public static final java.time.Duration MAX_DRAIN = java.time.Duration.ofMinutes(10);

    private final Consumer<String> warn;
    private final Object lock = new Object();
    private long requests;
    private long answers;
    private boolean ended;

    /** @param warn where a dropped input line is reported (one safe sentence; never the line) */
    public StdioLifecycle(Consumer<String> warn) {
        this.warn = requireNonNull(warn, "warn is null");
    }

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

    /**
     * Passes the input on line by line. A line that is not a JSON object is dropped with a warning:
     * the SDK's transport would end the whole session on it.
     */
    private final class Input extends InputStream {
        private final InputStream in;
        private byte[] pending = new byte[0];
        private int position;
        private boolean finished;

        Input(InputStream in) {
            this.in = new BufferedInputStream(in, 1 << 16);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (position >= pending.length) {
                if (finished) {
                    return -1;
                }
                byte[] line;
                try {
                    line = nextLine();
                } catch (IOException | RuntimeException e) {
                    finished = true;
                    end();
                    throw e;
                }
                if (line == null) {
                    finished = true;
                    drain();
                    end();
                    return -1;
                }
                if (accept(line)) {
                    pending = java.util.Arrays.copyOf(line, line.length + 1);
                    pending[line.length] = '\n';
                    position = 0;
                }
            }
            int n = Math.min(len, pending.length - position);
            System.arraycopy(pending, position, b, off, n);
            position += n;
            return n;
        }

        /** The next line without its line end, {@code null} at the end of input; an over-long line comes back empty. */
        private byte[] nextLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false;
            int c;
            while ((c = in.read()) >= 0 && c != '\n') {
                if (line.size() < MAX_LINE) {
                    line.write(c);
                } else {
                    tooLong = true;
                }
            }
            if (c < 0 && line.size() == 0) {
                return null;
            }
            if (tooLong) {
                warn.accept("an input line longer than " + MAX_LINE + " bytes was dropped.");
                return new byte[0];
            }
            return line.toByteArray();
        }

        private boolean accept(byte[] line) {
            if (new String(line, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
                return false;
            }
            JsonNode message;
            try {
                message = JSON.readTree(line);
            } catch (IOException e) {
                message = null;
            }
            if (message == null || !message.isObject()) {
                warn.accept("an input line that is not a JSON-RPC message was dropped.");
                return false;
            }
            if (message.has("method") && message.has("id")) {
                request();
            }
            return true;
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
