package io.locus.memcached.backend;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A raw-socket stand-in for memcached that records what it receives and answers each request line with whatever
 * {@code responder} returns: bytes to send, {@link #STALL} to say nothing, or {@link #CLOSE} to drop the connection.
 * Lines of a data block are passed to the responder too; it answers them with null (nothing to send).
 */
final class MockBackend implements AutoCloseable {
    static final byte[] STALL = new byte[0];
    static final byte[] CLOSE = new byte[0];

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final StringBuffer received = new StringBuffer();
    private volatile Function<String, byte[]> responder;

    MockBackend(Function<String, byte[]> responder) throws IOException {
        this.responder = responder;
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::acceptLoop, "mock-backend-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    void responder(Function<String, byte[]> r) {
        this.responder = r;
    }

    /** Everything received so far, on all connections. */
    String received() {
        return received.toString();
    }

    /**
     * What was received once at least {@code length} characters arrived, or after a minute. Why wait: the mock
     * answers a storage command at its line, so a client may hold the reply before the data block is read here.
     */
    String receivedAtLeast(int length) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (received.length() < length && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return received.toString();
    }

    void clearReceived() {
        received.setLength(0);
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                sockets.add(s);
                Thread t = new Thread(() -> serve(s), "mock-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s;
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                received.append((char) b);
                line.write(b);
                if (b == '\n') {
                    byte[] reply = responder.apply(line.toString(StandardCharsets.ISO_8859_1));
                    line.reset();
                    if (reply == CLOSE) {
                        return;
                    }
                    if (reply != null && reply != STALL) {
                        out.write(reply);
                        out.flush();
                    }
                }
            }
        } catch (IOException e) {
            // the proxy closed the connection
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
