package dev.sqlguard.trino.internal;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.trino.jdbc.NonRegisteringTrinoDriver;
import io.trino.jdbc.$internal.kotlin.jvm.functions.Function0;
import io.trino.jdbc.$internal.kotlin.reflect.KClass;
import io.trino.jdbc.$internal.okhttp3.Call;
import io.trino.jdbc.$internal.okhttp3.Callback;
import io.trino.jdbc.$internal.okhttp3.EventListener;
import io.trino.jdbc.$internal.okhttp3.OkHttpClient;
import io.trino.jdbc.$internal.okhttp3.Request;
import io.trino.jdbc.$internal.okhttp3.Response;
import io.trino.jdbc.$internal.okio.Timeout;

/**
 * Trino JDBC with every HTTP round trip of a connection bounded by that connection's deadline (the
 * deadline of the one call it serves): submitting the query, each poll and page of results (also
 * those the driver fetches on its own background thread), and the {@code EXPLAIN}s of validation.
 *
 * <p>Trino JDBC 483 reads with OkHttp's default 10 s read timeout, has no property for it, and
 * retries a failed request until the connection's network timeout; neither
 * {@code Statement.cancel()} nor {@code setNetworkTimeout} unblocks a read from a coordinator that
 * stopped answering (measured: a call on a 2 s source answered after 30 s). The driver's own hook,
 * {@link #wrapClient(OkHttpClient)}, called once per client of each {@code connect}, gives each of
 * the connection's calls an OkHttp call timeout (DNS, connect, request, server time and the whole
 * response body) of the time the deadline has left, so a frozen coordinator fails the round trip at
 * the deadline.
 *
 * <p>The one request sent after the deadline as a rule is the cancel ({@code DELETE} of the query,
 * from {@code Statement.cancel()} at the deadline or from the close). It goes out on the driver's
 * dispatcher with {@link #CANCEL_MILLIS} of its own, and the thread that sent it waits for its
 * answer only while the deadline has time left: a healthy coordinator still gets the cancel (the
 * query ends as USER_CANCELED), and a frozen one holds up nobody. The server stops the query on its
 * own anyway at {@code query_max_run_time}, which every query carries.
 */
public final class BoundedTrinoDriver extends NonRegisteringTrinoDriver {
    /** How long a cancel may take on its own, in the background, past the caller's deadline. */
    public static final long CANCEL_MILLIS = 5_000;

    /** The deadline of the connection {@code connect} is opening on this thread. */
    private static final ThreadLocal<Long> OPENING = new ThreadLocal<>();

    public BoundedTrinoDriver() {
        super();
    }

    /**
     * A connection whose every HTTP round trip ends by {@code deadlineNanos} (a
     * {@link System#nanoTime()} value), a cancel excepted (see the class comment).
     *
     * @return the connection, or {@code null} when the driver does not accept the URL
     */
    public Connection connect(String url, Properties info, long deadlineNanos) throws SQLException {
        OPENING.set(deadlineNanos);
        try {
            return super.connect(url, info);
        } finally {
            OPENING.remove();
        }
    }

    /** Refused: every connection of this driver needs a deadline ({@link #connect(String, Properties, long)}). */
    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        throw new SQLException("a connection of this driver needs a deadline");
    }

    @Override
    protected Call.Factory wrapClient(OkHttpClient client) {
        Long deadline = OPENING.get();
        if (deadline == null) {
            throw new IllegalStateException("a connection of this driver needs a deadline");
        }
        return new BoundedCalls(client, deadline);
    }

    /** The calls of one connection, each bounded by its deadline. */
    private record BoundedCalls(OkHttpClient client, long deadlineNanos) implements Call.Factory {
        BoundedCalls {
            requireNonNull(client, "client is null");
        }

        @Override
        public Call newCall(Request request) {
            Call call = client.newCall(request);
            if ("DELETE".equals(request.method())) {
                call.timeout().timeout(CANCEL_MILLIS, TimeUnit.MILLISECONDS);
                return new DetachedCall(call, deadlineNanos);
            }
            // at least a nanosecond: a zero timeout is none; a call past its deadline fails at once
            call.timeout().timeout(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            return call;
        }
    }

    /**
     * A call whose {@link #execute()} sends the request on the dispatcher and waits for the answer
     * only until the deadline; past it the request goes on, bounded by its own timeout, and a late
     * answer is closed unread.
     */
    private static final class DetachedCall implements Call {
        private final Call call;
        private final long deadlineNanos;

        DetachedCall(Call call, long deadlineNanos) {
            this.call = call;
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public Response execute() throws IOException {
            CompletableFuture<Response> answer = new CompletableFuture<>();
            call.enqueue(new Callback() {
                @Override
                public void onFailure(Call c, IOException e) {
                    answer.completeExceptionally(e);
                }

                @Override
                public void onResponse(Call c, Response response) {
                    if (!answer.complete(response)) {
                        response.close(); // nobody waits for it any more
                    }
                }
            });
            try {
                return answer.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                InterruptedIOException late = new InterruptedIOException("the cancel goes on in the background");
                if (!answer.completeExceptionally(late)) {
                    return answer.join(); // it answered just now
                }
                throw late;
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while sending the cancel");
            }
        }

        @Override
        public Request request() {
            return call.request();
        }

        @Override
        public void enqueue(Callback callback) {
            call.enqueue(callback);
        }

        @Override
        public void cancel() {
            call.cancel();
        }

        @Override
        public boolean isExecuted() {
            return call.isExecuted();
        }

        @Override
        public boolean isCanceled() {
            return call.isCanceled();
        }

        @Override
        public Timeout timeout() {
            return call.timeout();
        }

        @Override
        public void addEventListener(EventListener listener) {
            call.addEventListener(listener);
        }

        @Override
        public <T> T tag(KClass<T> type) {
            return call.tag(type);
        }

        @Override
        public <T> T tag(Class<? extends T> type) {
            return call.tag(type);
        }

        @Override
        public <T> T tag(KClass<T> type, Function0<? extends T> computeIfAbsent) {
            return call.tag(type, computeIfAbsent);
        }

        @Override
        public <T> T tag(Class<T> type, Function0<? extends T> computeIfAbsent) {
            return call.tag(type, computeIfAbsent);
        }

        @Override
        public Call clone() {
            return new DetachedCall(call.clone(), deadlineNanos);
        }
    }
}
