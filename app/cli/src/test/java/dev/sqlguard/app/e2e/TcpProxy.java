package dev.sqlguard.app.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP port that is closed until {@link #open()}, then forwards every connection to a target
 * (a database server that is "down" and then "back", without touching the real server).
 */
final class TcpProxy implements AutoCloseable {
    private final int port;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private ServerSocket server;

    TcpProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.port = probe.getLocalPort(); // free now; nothing listens on it until open()
        }
    }

    int port() {
        return port;
    }

    /** Starts listening and forwarding. */
    synchronized void open() throws IOException {
        ServerSocket listening = new ServerSocket();
        listening.setReuseAddress(true);
        listening.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = listening;
        Thread accept = new Thread(() -> {
            while (!listening.isClosed()) {
                try {
                    Socket client = listening.accept();
                    Socket target = new Socket(targetHost, targetPort);
                    sockets.add(client);
                    sockets.add(target);
                    pump(client, target);
                    pump(target, client);
                } catch (IOException e) {
                    return;
                }
            }
        }, "tcp-proxy-accept");
        accept.setDaemon(true);
        accept.start();
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // a side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "tcp-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (server != null) {
            server.close();
        }
        sockets.forEach(TcpProxy::closeQuietly);
    }
}
