package io.locus.memcached.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP relay in front of a real memcached that serves each connection's request lines one at a time with a fixed
 * extra service time: a backend whose capacity is {@code connections / serviceTime} (DESIGN.md, "How it is measured",
 * asks for a slowed backend). Replies are relayed as they come. Test helper; daemon threads, closed by {@link
 * #close()}.
 */
public final class SlowRelay implements AutoCloseable {
    private final ServerSocket server;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Every byte relayed towards the backend, in the order each connection sent it. */
    private final ByteArrayOutputStream upstream = new ByteArrayOutputStream();

    private volatile boolean closed;

    public SlowRelay(InetSocketAddress backend, long serviceNanos) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(
                () -> {
                    while (!closed) {
                        try {
                            Socket client = server.accept();
                            Socket up = new Socket(backend.getAddress(), backend.getPort());
                            client.setTcpNoDelay(true);
                            up.setTcpNoDelay(true);
                            sockets.add(client);
                            sockets.add(up);
                            daemon(() -> delayLines(client, up, serviceNanos, upstream), "slow-relay-up");
                            daemon(() -> copy(up, client), "slow-relay-down");
                        } catch (IOException e) {
                            return;
                        }
                    }
                },
                "slow-relay-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    private static void daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    /** What the relay passed on towards the backend so far. */
    public byte[] upstream() {
        synchronized (upstream) {
            return upstream.toByteArray();
        }
    }

    private static void delayLines(Socket from, Socket to, long serviceNanos, ByteArrayOutputStream record) {
        try (InputStream in = new BufferedInputStream(from.getInputStream());
                OutputStream out = to.getOutputStream()) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                line.write(b);
                if (b == '\n') {
                    long until = System.nanoTime() + serviceNanos;
                    while (System.nanoTime() < until) {
                        LockSupport.parkNanos(until - System.nanoTime());
                    }
                    synchronized (record) {
                        line.writeTo(record);
                    }
                    line.writeTo(out);
                    out.flush();
                    line.reset();
                }
            }
        } catch (IOException e) {
            // one side closed: the relay connection ends
        }
    }

    private static void copy(Socket from, Socket to) {
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // one side closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
