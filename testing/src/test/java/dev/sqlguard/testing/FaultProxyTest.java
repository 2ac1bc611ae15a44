package dev.sqlguard.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FaultProxyTest {
    private ServerSocket echo;

    /** An echo server: each connection gets back every byte it sends. */
    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread c = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // the client went away
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
    }

    @AfterEach
    void stopEcho() throws IOException {
        echo.close();
    }

    private FaultProxy proxy() throws IOException {
        return FaultProxy.to("127.0.0.1", echo.getLocalPort());
    }

    private static Socket client(FaultProxy proxy) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(300);
        return s;
    }

    private static void send(Socket s, int b) throws IOException {
        s.getOutputStream().write(b);
        s.getOutputStream().flush();
    }

    @Test
    void forwardsBothWays() throws Exception {
        try (FaultProxy proxy = proxy(); Socket s = client(proxy)) {
            send(s, 42);
            assertThat(s.getInputStream().read()).isEqualTo(42);
        }
    }

    @Test
    void aPausedProxyHoldsTheBytesBackUntilItResumes() throws Exception {
        try (FaultProxy proxy = proxy(); Socket s = client(proxy)) {
            send(s, 1);
            assertThat(s.getInputStream().read()).isEqualTo(1);
            proxy.pause();
            send(s, 2);
            assertThatThrownBy(() -> s.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            proxy.resume();
            s.setSoTimeout(5_000);
            assertThat(s.getInputStream().read()).isEqualTo(2);
        }
    }

    @Test
    void aBurstOfConnectionsDuringAPauseIsServedOnceItResumes() throws Exception {
        try (FaultProxy proxy = proxy()) {
            proxy.pause();
            java.util.List<Socket> burst = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    Socket s = client(proxy);
                    send(s, i % 100);
                    burst.add(s);
                }
                proxy.resume();
                for (int i = 0; i < burst.size(); i++) {
                    burst.get(i).setSoTimeout(10_000);
                    assertThat(burst.get(i).getInputStream().read()).as("connection %d", i).isEqualTo(i % 100);
                }
            } finally {
                for (Socket s : burst) {
                    s.close();
                }
            }
            try (Socket after = client(proxy)) {
                send(after, 9);
                after.setSoTimeout(5_000);
                assertThat(after.getInputStream().read()).isEqualTo(9);
            }
            assertThat(proxy.failures()).isZero();
        }
    }

    @Test
    void anOutageCutsOpenConnectionsAndTheSamePortServesAgainAfterIt() throws Exception {
        try (FaultProxy proxy = proxy(); Socket before = client(proxy)) {
            send(before, 1);
            assertThat(before.getInputStream().read()).isEqualTo(1);
            Thread outage = new Thread(() -> {
                try {
                    proxy.outage(Duration.ofMillis(800));
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            outage.start();
            before.setSoTimeout(5_000);
            assertThat(before.getInputStream().read()).as("the open connection is cut").isEqualTo(-1);
            assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), proxy.port()).close())
                    .as("the port refuses during the outage").isInstanceOf(ConnectException.class);
            outage.join();
            try (Socket after = client(proxy)) {
                send(after, 3);
                after.setSoTimeout(5_000);
                assertThat(after.getInputStream().read()).isEqualTo(3);
            }
        }
    }

    @Test
    void anUnreachableProxyRefusesUntilItOpens() throws Exception {
        try (FaultProxy proxy = FaultProxy.unreachable("127.0.0.1", echo.getLocalPort())) {
            assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), proxy.port()).close())
                    .isInstanceOf(ConnectException.class);
            proxy.open();
            try (Socket s = client(proxy)) {
                send(s, 7);
                s.setSoTimeout(5_000);
                assertThat(s.getInputStream().read()).isEqualTo(7);
            }
        }
    }

    @Test
    void aServerThatRefusesLooksLikeACutConnection() throws Exception {
        int port = echo.getLocalPort();
        echo.close();
        try (FaultProxy proxy = FaultProxy.to("127.0.0.1", port); Socket s = client(proxy)) {
            s.setSoTimeout(5_000);
            assertThat(s.getInputStream().read()).isEqualTo(-1);
        }
    }
}
