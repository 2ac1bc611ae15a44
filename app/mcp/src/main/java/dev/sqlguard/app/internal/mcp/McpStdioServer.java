package dev.sqlguard.app.internal.mcp;

import static java.util.Objects.requireNonNull;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.sqlguard.app.internal.json.ToolResultJson;
import dev.sqlguard.domain.ErrorCode;
import dev.sqlguard.domain.GuardException;
import dev.sqlguard.domain.ToolStatus;
import dev.sqlguard.domain.port.AuditEvent;

/**
 * The MCP server's JSON-RPC layer on stdio: one JSON-RPC message (or, under protocol 2025-03-26,
 * one batch) per input line, one per output line.
 *
 * <ul>
 *   <li>Lifecycle: {@code ping} is answered at any time; every other request before
 *       {@code initialize}, or before {@code notifications/initialized}, gets the JSON-RPC error
 *       {@value #NOT_INITIALIZED}.</li>
 *   <li>Every request gets exactly one response, except one the client cancelled with
 *       {@code notifications/cancelled}: its statement is cancelled on the engine and no response
 *       is sent, as the specification asks.</li>
 *   <li>Tool calls run on a bounded pool with a bounded queue; a call past the queue is answered
 *       at once with a {@code SERVER_BUSY} tool error ({@code retryable: true}).</li>
 *   <li>When the input ends, each call still running or waiting gets {@link Settings#grace()} to
 *       finish, counted from the end of input or from its own start, whichever is later (at most
 *       {@link #DRAIN_CAP} in all, and no longer once nothing starts or ends): waiting quick calls
 *       are all answered. A call past its grace is cancelled and answered with {@code CANCELLED};
 *       then {@link #serve} returns.</li>
 *   <li>JSON-RPC 2.0 as written: a line that is not JSON is answered {@code -32700} (id null), a
 *       message that is not a valid request object {@code -32600}.</li>
 *   <li>Log messages ({@code notifications/message}) report what also goes to stderr as a warning;
 *       {@code logging/setLevel} sets the least severe level sent.</li>
 * </ul>
 *
 * Thread-safe: {@link #serve} runs once; {@link #stop} may be called from any thread.
 */
public final class McpStdioServer {
    /** Protocol versions understood, newest first; an unknown request gets the newest. */
    public static final List<String> PROTOCOL_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    /** The one version with JSON-RPC batches (added in 2025-03-26, removed in 2025-06-18). */
    public static final String BATCH_VERSION = "2025-03-26";

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    /** A request before the handshake is complete (the code LSP uses for the same case). */
    static final int NOT_INITIALIZED = -32002;

    /** Longest input line read (tool arguments are refused far below this anyway). */
    static final int MAX_LINE = 16 << 20;
    /** Deepest nesting read; deeper input is a parse error. */
    static final int MAX_DEPTH = 1000;
    /** Longest wait for calls still answering after the input ended (each call has the grace from its own start). */
    static final Duration DRAIN_CAP = Duration.ofSeconds(10);

    /**
     * The reader of input lines: nesting beyond {@value #MAX_DEPTH} levels, or a string longer than a line
     * may be, is a parse error ({@code -32700}), never a stack overflow. MCP messages nest about six deep.
     */
    private static final ObjectMapper JSON = new ObjectMapper(com.fasterxml.jackson.core.JsonFactory.builder()
            .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                    .maxNestingDepth(McpStdioServer.MAX_DEPTH).maxStringLength(MAX_LINE).build())
            .build());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final List<String> LEVELS = List.of("debug", "info", "notice", "warning", "error", "critical",
            "alert", "emergency");

    /**
     * @param workers tool calls running at once
     * @param queue tool calls waiting beyond those; past it a call is answered {@code SERVER_BUSY}
     * @param grace how long calls still running may finish once the input has ended
     */
    public record Settings(int workers, int queue, Duration grace) {
        public Settings {
            requireNonNull(grace, "grace is null");
            if (workers < 1 || queue < 1) {
                throw new IllegalArgumentException("workers and queue must be positive");
            }
        }

        /** 8 calls at once, 32 waiting, 600 ms to finish after the input ends. */
        public static Settings defaults() {
            return new Settings(8, 32, Duration.ofMillis(600));
        }
    }

    private enum Phase { NEW, INITIALIZING, READY }

    /** One tool call in flight; {@code task} is what runs it on the pool. */
    private record Call(JsonNode id, String callId, Batch batch, Runnable[] task, long[] started) {
        Call(JsonNode id, String callId, Batch batch) {
            this(id, callId, batch, new Runnable[1], new long[1]);
        }

        // identity, not the arrays' contents: a call is one request in flight
        @Override
        public boolean equals(Object other) {
            return this == other;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /** The responses of one batch, written as one array once every request in it is answered. */
    private final class Batch {
        private final ArrayNode responses = NODES.arrayNode();
        private int pending = 1; // the batch's own reading holds it open

        synchronized void hold() {
            pending++;
        }

        void add(ObjectNode response) {
            ArrayNode done = null;
            synchronized (this) {
                if (response != null) {
                    responses.add(response);
                }
                if (--pending == 0 && !responses.isEmpty()) {
                    done = responses;
                }
            }
            if (done != null) {
                write(done);
            }
        }
    }

    private final McpToolServer tools;
    private final String version;
    private final Settings settings;
    private final Consumer<String> warn;
    private final ThreadPoolExecutor pool;
    /** Tool calls in flight, by the JSON text of their request id. */
    private final Map<String, Call> inFlight = new ConcurrentHashMap<>();
    /** Answers being written by workers: a call leaves {@link #inFlight} just before its answer is written. */
    private final java.util.concurrent.atomic.AtomicInteger answering = new java.util.concurrent.atomic.AtomicInteger();
    /** Tool calls answered so far: while this grows after the input ended, the calls left are given more time. */
    private final java.util.concurrent.atomic.AtomicLong answered = new java.util.concurrent.atomic.AtomicLong();
    /** Tool calls started on a worker so far. */
    private final java.util.concurrent.atomic.AtomicLong started = new java.util.concurrent.atomic.AtomicLong();
    private final Object writeLock = new Object();

    private volatile Phase phase = Phase.NEW;
    private volatile String protocol = "";
    /** The client's name from {@code initialize} ({@code clientInfo.name}), recorded in the audit. */
    private volatile String clientName = "";
    private volatile int logLevel = LEVELS.indexOf("info");
    private volatile OutputStream out;
    private volatile boolean outputBroken;
    /** A refusal for a full queue has been reported since the last call accepted (one warning per burst). */
    private volatile boolean busyReported;

    /**
     * @param tools the tools served
     * @param version the version reported in {@code initialize}
     * @param warn where warnings go besides log messages (stderr; one safe sentence each)
     */
    public McpStdioServer(McpToolServer tools, String version, Settings settings, Consumer<String> warn) {
        this.tools = requireNonNull(tools, "tools is null");
        this.version = requireNonNull(version, "version is null");
        this.settings = requireNonNull(settings, "settings is null");
        this.warn = requireNonNull(warn, "warn is null");
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(settings.workers(), settings.workers(), 30, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(settings.queue()), r -> {
                    Thread t = new Thread(r, "sqlguard-mcp-call-" + n.incrementAndGet());
                    t.setDaemon(true); // a call stuck in its engine never holds the process
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
    }

    /**
     * Serves JSON-RPC on {@code in} and {@code out} (the process's real stdin and stdout) until the
     * input ends; then answers or cancels what is still running within {@link Settings#grace()}
     * (plus the time a cancelled statement needs to stop), and returns. Nothing else may write to
     * {@code out}.
     */
    public void serve(InputStream in, OutputStream out) {
        this.out = requireNonNull(out, "out is null");
        InputStream input = new BufferedInputStream(requireNonNull(in, "in is null"), 1 << 16);
        try {
            byte[] line;
            while (!outputBroken && (line = nextLine(input)) != null) {
                receive(line);
            }
        } catch (IOException e) {
            warn.accept("the input could not be read; the server stops.");
        } finally {
            stop();
        }
    }

    /**
     * Ends every call in flight: each gets {@link Settings#grace()} to finish, then is cancelled on
     * its engine and answered with {@code CANCELLED}. Used when the input ends and on SIGTERM.
     */
    public void stop() {
        // each call gets the grace from the end of input or from its own start, whichever is later: requests
        // piped just before the end are all answered however long the queue ahead of them, while a call that
        // runs on is cancelled; the wait ends when nothing starts or ends for a while (every worker stuck)
        long grace = settings.grace().toNanos();
        long end = System.nanoTime();
        long cap = end + DRAIN_CAP.toNanos();
        long progress = answered.get() + started.get();
        long lastProgress = end;
        Map<Call, Long> cancelledAt = new java.util.HashMap<>();
        while (!inFlight.isEmpty()) {
            long now = System.nanoTime();
            long seen = answered.get() + started.get();
            if (seen != progress) {
                progress = seen;
                lastProgress = now;
            }
            if (now >= cap || now - lastProgress > grace + STUCK_NANOS) {
                break;
            }
            for (Call call : List.copyOf(inFlight.values())) {
                long since;
                synchronized (call) {
                    since = call.started()[0];
                }
                if (since != 0 && now - Math.max(since, end) >= grace && !cancelledAt.containsKey(call)) {
                    cancelledAt.put(call, now);
                    tools.cancel(call.callId());
                }
            }
            // a cancelled statement answers by itself within milliseconds; a stuck one is answered here
            cancelledAt.forEach((call, at) -> {
                if (now - at > STUCK_NANOS && inFlight.remove(key(call.id()), call)) {
                    deliver(call.batch(), response(call.id(), stopping()));
                }
            });
            sleep(5);
        }
        for (Call call : List.copyOf(inFlight.values())) {
            tools.cancel(call.callId());
        }
        // a cancelled statement answers by itself within milliseconds; a stuck one is answered here
        long cancelDeadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
        while (!inFlight.isEmpty() && System.nanoTime() < cancelDeadline) {
            sleep(5);
        }
        for (Map.Entry<String, Call> e : List.copyOf(inFlight.entrySet())) {
            if (inFlight.remove(e.getKey(), e.getValue())) {
                deliver(e.getValue().batch(), response(e.getValue().id(), stopping()));
            }
        }
        // an answer a worker is writing now must reach the client before the process may end (SIGTERM)
        long writeDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
        while (answering.get() > 0 && System.nanoTime() < writeDeadline) {
            sleep(1);
        }
        pool.shutdownNow();
    }

    private static ObjectNode stopping() {
        return McpToolServer.failure(ToolStatus.ERROR,
                new GuardException(ErrorCode.CANCELLED, "The server is stopping; the call was cancelled."));
    }

    /** How long a cancelled call may take to answer by itself before the server answers it. */
    private static final long STUCK_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What {@link #nextLine} returns for a line longer than {@link #MAX_LINE}: answered as a parse error. */
    private static final byte[] TOO_LONG = new byte[0];

    /** The next line without its line end, {@code null} at the end of input; an over-long line comes back as {@link #TOO_LONG}. */
    private byte[] nextLine(InputStream in) throws IOException {
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
            return TOO_LONG;
        }
        return line.toByteArray();
    }

    private void receive(byte[] line) {
        if (line == TOO_LONG) {
            warning("an input line longer than " + MAX_LINE + " bytes was answered as a parse error.");
            write(error(NODES.nullNode(), PARSE_ERROR, "Parse error: the line is longer than " + MAX_LINE + " bytes."));
            return;
        }
        if (new String(line, StandardCharsets.UTF_8).isBlank()) {
            return;
        }
        JsonNode message;
        try {
            message = JSON.readTree(line);
        } catch (IOException | StackOverflowError e) {
            // JSON-RPC 2.0: invalid JSON is answered with a parse error, id null; the line is never repeated
            warning("an input line that is not JSON was answered as a parse error.");
            write(error(NODES.nullNode(), PARSE_ERROR, "Parse error: the line is not valid JSON"
                    + (e instanceof com.fasterxml.jackson.core.exc.StreamConstraintsException
                            ? " within this server's bounds (nesting at most " + MAX_DEPTH + " deep)." : ".")));
            return;
        }
        if (message != null && message.isArray()) {
            batch((ArrayNode) message);
        } else if (message != null && message.isObject()) {
            ObjectNode answer = handle((ObjectNode) message, null);
            if (answer != null) {
                write(answer);
            }
        } else {
            // JSON, but neither an object nor an array (a number, a string, null)
            write(error(NODES.nullNode(), INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object."));
        }
    }

    private void batch(ArrayNode messages) {
        if (!BATCH_VERSION.equals(protocol) || messages.isEmpty()) {
            String why = messages.isEmpty() ? "An empty batch is not a valid request."
                    : "JSON-RPC batches are accepted under protocol " + BATCH_VERSION + " only"
                            + (protocol.isEmpty() ? "" : ", not " + protocol) + "; send one message per line.";
            write(error(NODES.nullNode(), INVALID_REQUEST, why));
            return;
        }
        Batch batch = new Batch();
        for (JsonNode message : messages) {
            if (message.isObject()) {
                ObjectNode answer = handle((ObjectNode) message, batch);
                if (answer != null) {
                    batch.hold();
                    batch.add(answer);
                }
            } else {
                batch.hold();
                batch.add(error(NODES.nullNode(), INVALID_REQUEST, "A batch item is not a JSON-RPC message."));
            }
        }
        batch.add(null); // the reading is done
    }

    /**
     * Handles one message: returns its response now, or {@code null} when there is none yet (a tool
     * call, answered later through {@code batch} or alone) or none at all (a notification).
     */
    private ObjectNode handle(ObjectNode message, Batch batch) {
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method == null && (message.has("result") || message.has("error"))) {
            return null; // a response: this server sends no requests, so there is nothing to match
        }
        boolean validId = id != null && (id.isTextual() || id.isIntegralNumber());
        JsonNode answerId = validId ? id : NODES.nullNode();
        JsonNode version = message.get("jsonrpc");
        if (version == null || !version.isTextual() || !version.textValue().equals("2.0")) {
            return error(answerId, INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be exactly \"2.0\".");
        }
        if (id != null && !validId) {
            return error(NODES.nullNode(), INVALID_REQUEST, "Invalid Request: a request id must be a string or an integer.");
        }
        if (method == null || !method.isTextual()) {
            return error(answerId, INVALID_REQUEST, "Invalid Request: \"method\" must be a string.");
        }
        JsonNode params = message.get("params");
        if (id == null) {
            notification(method.textValue(), params);
            return null;
        }
        if (params != null && !params.isObject() && !params.isArray()) {
            return error(id, INVALID_REQUEST, "Invalid Request: \"params\" must be an object.");
        }
        return request(id, method.textValue(), params, batch);
    }

    private void notification(String method, JsonNode params) {
        switch (method) {
            case "notifications/initialized" -> {
                if (phase == Phase.INITIALIZING) {
                    phase = Phase.READY;
                    for (McpToolServer.SourceInfo source : tools.sources()) {
                        source.error().ifPresent(e -> log("warning", "source '" + source.id() + "' is not served: "
                                + e.message()));
                    }
                }
            }
            case "notifications/cancelled" -> cancel(params);
            default -> { } // other notifications need no action
        }
    }

    /** Cancels a call in flight: its statement stops on the engine, and no response is sent. */
    private void cancel(JsonNode params) {
        JsonNode requestId = params == null ? null : params.get("requestId");
        if (requestId == null) {
            return;
        }
        Call call = inFlight.remove(key(requestId));
        if (call != null) {
            // a call still waiting keeps its place: it starts cancelled, runs no statement and is audited as CANCELLED
            tools.cancel(call.callId());
            if (call.batch() != null) {
                call.batch().add(null); // nothing to add for it
            }
        }
    }

    private ObjectNode request(JsonNode id, String method, JsonNode params, Batch batch) {
        if (method.equals("ping")) {
            return response(id, NODES.objectNode());
        }
        if (method.equals("initialize")) {
            return initialize(id, params, batch);
        }
        if (phase != Phase.READY) {
            return error(id, NOT_INITIALIZED, phase == Phase.NEW
                    ? "The server is not initialized: send initialize first, then notifications/initialized."
                    : "The handshake is not complete: send notifications/initialized first.");
        }
        return switch (method) {
            case "tools/list" -> {
                ObjectNode result = NODES.objectNode();
                result.putArray("tools").addAll(tools.definitions());
                yield response(id, result);
            }
            case "tools/call" -> callTool(id, params, batch);
            case "logging/setLevel" -> setLevel(id, params);
            default -> error(id, METHOD_NOT_FOUND, "Method not found; this server offers tools and logging.");
        };
    }

    private ObjectNode initialize(JsonNode id, JsonNode params, Batch batch) {
        if (batch != null) {
            return error(id, INVALID_REQUEST, "initialize must not be part of a batch.");
        }
        if (phase != Phase.NEW) {
            return error(id, INVALID_REQUEST, "The server is already initialized.");
        }
        JsonNode requested = params == null ? null : params.get("protocolVersion");
        String chosen = requested != null && requested.isTextual() && PROTOCOL_VERSIONS.contains(requested.textValue())
                ? requested.textValue() : PROTOCOL_VERSIONS.get(0);
        protocol = chosen;
        JsonNode name = params == null ? null : params.path("clientInfo").get("name");
        clientName = name != null && name.isTextual() ? name.textValue() : "";
        phase = Phase.INITIALIZING;
        ObjectNode result = NODES.objectNode().put("protocolVersion", chosen);
        ObjectNode capabilities = result.putObject("capabilities");
        capabilities.putObject("tools").put("listChanged", false);
        capabilities.putObject("logging");
        result.putObject("serverInfo").put("name", "sqlguard").put("title", "sqlguard").put("version", version);
        result.put("instructions", "Read-only, guarded SQL over the configured sources. Start with list_sources and "
                + "describe_source; every query is checked, bounded and audited. Errors come back as tool "
                + "results with isError and a stable code.");
        return response(id, result);
    }

    private ObjectNode setLevel(JsonNode id, JsonNode params) {
        JsonNode level = params == null ? null : params.get("level");
        int index = level != null && level.isTextual() ? LEVELS.indexOf(level.textValue().toLowerCase(Locale.ROOT)) : -1;
        if (index < 0) {
            return error(id, INVALID_PARAMS, "level must be one of " + LEVELS + ".");
        }
        logLevel = index;
        return response(id, NODES.objectNode());
    }

    private ObjectNode callTool(JsonNode id, JsonNode params, Batch batch) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return error(id, INVALID_PARAMS, "tools/call needs params.name, the tool's name.");
        }
        if (!tools.has(name.textValue())) {
            return error(id, INVALID_PARAMS, "Unknown tool: " + safeName(name.textValue()) + ".");
        }
        JsonNode arguments = params.get("arguments");
        Call call = new Call(id, "mcp-" + UUID.randomUUID(), batch);
        String key = key(id);
        if (inFlight.putIfAbsent(key, call) != null) {
            return error(id, INVALID_REQUEST, "A request with this id is still running.");
        }
        if (batch != null) {
            batch.hold();
        }
        AuditEvent.Caller caller = new AuditEvent.Caller(id.isTextual() ? id.textValue() : id.toString(), clientName);
        call.task()[0] = () -> {
            if (inFlight.get(key) != call) {
                // cancelled while it waited, or answered as the server stopped: it starts cancelled, so the
                // tool runs no statement, and the call is audited as CANCELLED without another response
                CallerAudit.as(caller, () -> tools.call(name.textValue(), arguments, call.callId()));
                return;
            }
            synchronized (call) {
                call.started()[0] = Math.max(1, System.nanoTime());
            }
            started.incrementAndGet();
            ObjectNode result = CallerAudit.as(caller, () -> tools.call(name.textValue(), arguments, call.callId()));
            answering.incrementAndGet(); // before the call leaves inFlight: stop() waits for this answer to be written
            try {
                if (inFlight.remove(key, call)) {
                    deliver(batch, response(id, result));
                }
            } finally {
                answered.incrementAndGet();
                answering.decrementAndGet();
            }
        };
        try {
            pool.execute(call.task()[0]);
            busyReported = false;
        } catch (RejectedExecutionException e) {
            inFlight.remove(key, call);
            if (!busyReported) {
                busyReported = true;
                warning("tool calls are refused as busy: " + settings.workers() + " calls are running and "
                        + settings.queue() + " are waiting.");
            }
            ObjectNode busy = McpToolServer.failure(ToolStatus.ERROR, new GuardException(ErrorCode.SERVER_BUSY,
                    "The server is busy: " + settings.workers() + " calls are running and " + settings.queue()
                            + " are waiting. Try again in a moment."));
            deliver(batch, response(id, busy));
        }
        return null;
    }

    private void deliver(Batch batch, ObjectNode response) {
        if (batch == null) {
            write(response);
        } else {
            batch.add(response);
        }
    }

    /** A tool name as it may be repeated: letters, digits, '_', '-', '.', '/' and at most 64 of them. */
    private static String safeName(String name) {
        return name.length() <= 64 && name.matches("[A-Za-z0-9_./-]+") ? name : "(a name that is not shown)";
    }

    private static String key(JsonNode id) {
        return id.toString();
    }

    private static ObjectNode response(JsonNode id, ObjectNode result) {
        ObjectNode response = NODES.objectNode().put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    private static ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode response = NODES.objectNode().put("jsonrpc", "2.0");
        response.set("id", id);
        response.putObject("error").put("code", code).put("message", message);
        return response;
    }

    /** A warning on stderr, and as a log message to the client once it may receive one. */
    private void warning(String message) {
        warn.accept(message);
        log("warning", message);
    }

    private void log(String level, String message) {
        if (phase == Phase.NEW || LEVELS.indexOf(level) < logLevel) {
            return;
        }
        ObjectNode notification = NODES.objectNode().put("jsonrpc", "2.0").put("method", "notifications/message");
        notification.putObject("params").put("level", level).put("logger", "sqlguard").put("data", message);
        write(notification);
    }

    /** Writes one message on one line; a closed output ends the server. */
    private void write(JsonNode message) {
        byte[] bytes = (ToolResultJson.write(message) + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (writeLock) {
            if (outputBroken) {
                return;
            }
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException e) {
                outputBroken = true;
                warn.accept("the output was closed; the server stops.");
            }
        }
    }

    /**
     * Loads and links what answering a first request needs (the JSON reader and writer of this
     * server and of its tools) on a daemon thread, so that on a multi-core machine it overlaps the
     * engines' start instead of following it. Changes no state; returns the thread.
     */
    public static Thread warmUpInBackground() {
        Thread t = new Thread(() -> {
            try {
                JsonNode request = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"warm-up\",\"version\":\"0\"}}}");
                ObjectNode result = NODES.objectNode();
                result.set("echo", request.get("params"));
                ToolResultJson.write(response(request.get("id"), result));
                McpToolServer.warmUp();
            } catch (IOException | RuntimeException e) {
                // a warm-up only saves time: the first request loads the same classes if this could not
            }
        }, "sqlguard-mcp-warm-up");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** For tests: the tool calls in flight. */
    int inFlight() {
        return inFlight.size();
    }
}
