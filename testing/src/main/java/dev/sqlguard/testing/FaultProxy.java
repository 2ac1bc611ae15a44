package dev.sqlguard.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loopback TCP proxy in front of a database server, for testing how an adapter behaves when its
 * server falls sick, without touching the shared server itself:
 * <ul>
 *   <li>{@link #pause()} holds back the bytes in both directions, as a frozen server would, until
 *       {@link #resume()};</li>
 *   <li>{@link #outage(Duration)} cuts every open connection and refuses new ones for a while, as
 *       a restarting server would, then listens again on the same port;</li>
 *   <li>{@link #unreachable(String, int)} makes a proxy whose port refuses connections until
 *       {@link #open()}, as a server that is down when the adapter starts.</li>
 * </ul>
 * It also counts the bytes the server sent ({@link #bytesFromServer()}), to measure what crosses the
 * wire.
 * Point the adapter's URL at {@code 127.0.0.1:}{@link #port()}. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {
    private static final int BACKLOG = 1024;
    private volatile InetSocketAddress target;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile Thread acceptor;
    private volatile boolean paused;
    private volatile boolean closed;
    private final java.util.concurrent.atomic.LongAdder fromServer = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();

    private FaultProxy(InetSocketAddress target, boolean listening) throws IOException {
        this.target = target;
        if (listening) {
            listener = listen(0);
            port = listener.getLocalPort();
            accept(listener);
        } else {
            try (ServerSocket probe = listen(0)) {
                port = probe.getLocalPort(); // free now; nothing listens on it until open()
            }
        }
    }

    /** A proxy on a free loopback port that forwards to {@code host:port}. */
    public static FaultProxy to(String host, int port) throws IOException {
        return new FaultProxy(new InetSocketAddress(host, port), true);
    }

    /** A proxy to {@code host:port} whose loopback port refuses connections until {@link #open()}. */
    public static FaultProxy unreachable(String host, int port) throws IOException {
        return new FaultProxy(new InetSocketAddress(host, port), false);
    }

    /** Starts listening, if the proxy does not already. */
    public synchronized void open() throws IOException {
        if (closed || (listener != null && !listener.isClosed())) {
            return;
        }
        listener = listen(port);
        accept(listener);
    }

    /** The loopback port clients connect to. */
    public int port() {
        return port;
    }

    /**
     * The bytes the server has sent through the proxy so far, over every connection. A byte is counted
     * before it is forwarded, so once a client has read it, it is in the count.
     */
    public long bytesFromServer() {
        return fromServer.sum();
    }

    /**
     * Sends new connections to {@code host:port} from now on (a server restarted elsewhere, say);
     * open connections keep their server until they end.
     */
    public void retarget(String host, int port) {
        target = new InetSocketAddress(host, port);
    }

    /** Holds back every byte, in both directions, until {@link #resume()}. */
    public void pause() {
        paused = true;
    }

    /** Forwards again, starting with the bytes held back. */
    public void resume() {
        paused = false;
    }

    /** Cuts every connection and refuses new ones for {@code length}, then listens again on the same port. */
    public void outage(Duration length) throws IOException, InterruptedException {
        stopListening();
        cutAll();
        Thread.sleep(length.toMillis());
        open();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        paused = false;
        stopListening();
        cutAll();
    }

    /** Closes the listener and waits for its accepting thread to end: until then the port may still take connections. */
    private synchronized void stopListening() throws IOException {
        if (listener != null) {
            listener.close();
        }
        Thread t = acceptor;
        if (t != null) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        // a backlog for a burst: every call of a soak reconnecting at once after a freeze
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
        return socket;
    }

    private void accept(ServerSocket socket) {
        Thread t = new Thread(() -> {
            while (!socket.isClosed()) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (IOException e) {
                    continue; // the listener closed (an outage or close), or one accept failed
                }
                open.add(client);
                try {
                    // the connection to the server is made on a thread of its own: a slow connect must not stop this
                    // thread accepting, or the port's backlog fills while the proxy is meant to be up
                    Thread connector = new Thread(() -> connect(client), "fault-proxy-connect");
                    connector.setDaemon(true);
                    connector.start();
                } catch (RuntimeException | Error e) {
                    failures.incrementAndGet(); // no thread for this connection (out of native threads): cut it, keep accepting
                    cut(client);
                }
            }
        }, "fault-proxy-accept");
        t.setDaemon(true);
        acceptor = t;
        t.start();
    }

    private void connect(Socket client) {
        Socket server = new Socket();
        open.add(server);
        try {
            server.connect(target, 5_000);
        } catch (IOException e) {
            cut(client); // the server refused: the client sees its connection cut
            cut(server);
            return;
        }
        try {
            pump(client, server, null);
            pump(server, client, fromServer);
        } catch (RuntimeException | Error e) {
            failures.incrementAndGet();
            cut(client);
            cut(server);
        }
    }

    /**
     * How many accepted connections the proxy had to cut because it could not start a thread for them. Zero
     * unless the JVM ran out of threads: a soak that reports connection failures reads it to tell the proxy's
     * failures from the server's.
     */
    public int failures() {
        return failures.get();
    }

    private void pump(Socket from, Socket to, java.util.concurrent.atomic.LongAdder counted) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    while (paused && !closed) {
                        Thread.sleep(5);
                    }
                    if (counted != null) {
                        counted.add(n);
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed or was cut
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                cut(from);
                cut(to);
            }
        }, "fault-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void cutAll() {
        for (Socket s : Set.copyOf(open)) {
            cut(s);
        }
    }

    private void cut(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }
}
