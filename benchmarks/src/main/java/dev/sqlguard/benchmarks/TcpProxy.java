package dev.sqlguard.benchmarks;

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
 * A loopback TCP proxy in front of a database server, so that a soak can make the server vanish
 * and come back ({@link #outage}) without stopping the shared server itself: every open
 * connection is cut and the port refuses connections for the outage's length.
 */
final class TcpProxy implements AutoCloseable {
    private final InetSocketAddress target;
    private final int port;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile ServerSocket listener;
    private volatile boolean closed;

    TcpProxy(String host, int targetPort) throws IOException {
        this.target = new InetSocketAddress(host, targetPort);
        this.listener = listen(0);
        this.port = listener.getLocalPort();
        start(listener);
    }

    int port() {
        return port;
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void start(ServerSocket socket) {
        Thread accept = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    Socket server = new Socket();
                    server.connect(target, 5_000);
                    open.add(client);
                    open.add(server);
                    pump(client, server);
                    pump(server, client);
                } catch (IOException e) {
                    // the listener closed (an outage or close), or the server refused: the client sees a cut
                }
            }
        }, "soak-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut
            } finally {
                quietly(from);
                quietly(to);
            }
        }, "soak-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    private void quietly(Socket s) {
        open.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // closed already
        }
    }

    /** Cuts every connection and refuses new ones for {@code length}, then listens again on the same port. */
    void outage(Duration length) throws IOException, InterruptedException {
        listener.close();
        for (Socket s : Set.copyOf(open)) {
            quietly(s);
        }
        Thread.sleep(length.toMillis());
        if (!closed) {
            listener = listen(port);
            start(listener);
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        listener.close();
        for (Socket s : Set.copyOf(open)) {
            quietly(s);
        }
    }
}
