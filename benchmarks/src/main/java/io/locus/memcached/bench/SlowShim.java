package io.locus.memcached.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * The SlowShim of DESIGN.md, "How it is measured": a TCP forwarder in front of one real memcached that passes request
 * bytes through unchanged and releases each reply only when a single-server FIFO queue says its service finished:
 * {@code start = max(arrival, server free)}, {@code done = start + S}, {@code S} drawn from the {@link Emulation}.
 * Arrival is the moment memcached's reply is complete (memcached itself takes microseconds). One queue is shared by all
 * connections to this backend, so the backend has a capacity of {@code 1 / mean(S)} requests per second and requests
 * wait behind each other as at a slow store. Data still comes from the real memcached, byte for byte.
 *
 * <p>Replies are framed as memcached's text and meta protocols frame them: {@code VALUE ... END} and {@code STAT ...
 * END} are one reply, {@code VA <n>} carries {@code n} data bytes, every other reply is one line. Each connection
 * uses three platform threads (requests up, replies read, replies released).
 */
public final class SlowShim implements AutoCloseable {
    private final String name;
    private final InetSocketAddress backend;
    private final Emulation emulation;
    private final double meanServiceNanos;
    private final SplittableRandom random;
    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private long serverFreeNanos;
    private long replies;
    private long busyNanos;
    /**
     * How late replies left against the queue model's release time, µs, since {@link #takeLateness}: the shim's own
     * lag (its threads not scheduled in time), which every client of this backend sees as service time.
     */
    private final org.HdrHistogram.Histogram lateMicros = new org.HdrHistogram.Histogram(60_000_000L, 3);

    private volatile boolean closed;

    private SlowShim(String name, InetSocketAddress backend, Emulation emulation, double meanServiceNanos, long seed)
            throws IOException {
        this.name = name;
        this.backend = backend;
        this.emulation = emulation;
        this.meanServiceNanos = meanServiceNanos;
        this.random = new SplittableRandom(seed);
        this.listener = new ServerSocket(0, 512, InetAddress.getByName("127.0.0.1"));
        this.acceptor = new Thread(this::acceptLoop, "shim-" + name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Starts a shim on a free loopback port.
     *
     * @param seed seed of the service-time draws
     * @throws UncheckedIOException if no port can be bound
     */
    public static SlowShim start(String name, InetSocketAddress backend, Emulation emulation, long seed) {
        return start(name, backend, emulation, emulation.meanServiceNanos(), seed);
    }

    /**
     * Starts a shim whose service times have {@code emulation}'s shape and mean {@code meanServiceNanos} (capacity
     * {@code 1e9 / meanServiceNanos} requests per second).
     *
     * @param seed seed of the service-time draws
     * @throws IllegalArgumentException if the mean is not positive for a shimmed profile
     * @throws UncheckedIOException if no port can be bound
     */
    public static SlowShim start(
            String name, InetSocketAddress backend, Emulation emulation, double meanServiceNanos, long seed) {
        if (emulation.shimmed() && !(meanServiceNanos > 0)) {
            throw new IllegalArgumentException(
                    "shim " + name + ": mean service time " + meanServiceNanos + " ns (expected: > 0)");
        }
        try {
            return new SlowShim(name, backend, emulation, meanServiceNanos, seed);
        } catch (IOException e) {
            throw new UncheckedIOException("shim " + name + " for " + backend + ": cannot listen", e);
        }
    }

    /** Where clients connect. */
    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
    }

    /** The memcached behind this shim. */
    public InetSocketAddress backend() {
        return backend;
    }

    /** Replies released so far, and the emulated busy time, as {@code {replies, busyNanos}}. */
    public synchronized long[] counters() {
        return new long[] {replies, busyNanos};
    }

    /**
     * One line on the shim's lateness since the last call (then reset): replies released, p99 and max of how late
     * they left against the queue model. Why: on a loaded machine the shim's threads may not keep the schedule, and a
     * row whose replies left late measured this harness, not the path in front of it.
     */
    public synchronized String takeLateness() {
        String line = String.format(
                java.util.Locale.ROOT,
                "%s %d replies, late p99 %.1f ms, max %.1f ms",
                name,
                lateMicros.getTotalCount(),
                lateMicros.getValueAtPercentile(99) / 1000.0,
                lateMicros.getMaxValue() / 1000.0);
        lateMicros.reset();
        return line;
    }

    synchronized void recordLate(long lateNanos) {
        lateMicros.recordValue(Math.max(0, Math.min(60_000_000L, lateNanos / 1000)));
    }

    /** The release time of a reply complete at {@code arrivalNanos}: the queue model. */
    synchronized long schedule(long arrivalNanos) {
        long service = emulation.serviceNanos(random, meanServiceNanos);
        long start = Math.max(arrivalNanos, serverFreeNanos);
        serverFreeNanos = start + service;
        replies++;
        busyNanos += service;
        return serverFreeNanos;
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(backend, 5000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                sockets.add(client);
                sockets.add(server);
                Thread up = new Thread(() -> pump(client, server), "shim-" + name + "-up");
                Thread down = new Thread(() -> releaseReplies(server, client), "shim-" + name + "-down");
                up.setDaemon(true);
                down.setDaemon(true);
                up.start();
                down.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("shim " + name + ": accept failed: " + e);
                }
            }
        }
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // The other side closed; closing both ends below ends the pair.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /**
     * Reads replies as memcached sends them and stamps each with its release time at once, so the queue model sees
     * the true arrival; a second thread releases them in order. Stamping after the previous release instead would
     * add the sleeper's wake-up delay to every service time of a pipelining client (twemproxy, the Locus proxy).
     */
    private void releaseReplies(Socket server, Socket client) {
        BlockingQueue<Timed> ready = new LinkedBlockingQueue<>();
        Thread writer = new Thread(() -> writeWhenDue(ready, server, client), "shim-" + name + "-release");
        writer.setDaemon(true);
        writer.start();
        try (InputStream in = new BufferedInputStream(server.getInputStream(), 64 * 1024)) {
            ByteArrayOutputStream reply = new ByteArrayOutputStream(512);
            while (true) {
                reply.reset();
                if (!readReply(in, reply)) {
                    break;
                }
                ready.add(new Timed(schedule(System.nanoTime()), reply.toByteArray()));
            }
        } catch (IOException e) {
            // Connection ended.
        } finally {
            ready.add(Timed.END);
        }
    }

    private void writeWhenDue(BlockingQueue<Timed> ready, Socket server, Socket client) {
        try (OutputStream out = client.getOutputStream()) {
            while (true) {
                Timed next = ready.take();
                if (next == Timed.END) {
                    return;
                }
                long wait;
                while ((wait = next.releaseNanos - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                recordLate(System.nanoTime() - next.releaseNanos);
                out.write(next.bytes);
                if (ready.isEmpty()) {
                    out.flush();
                }
            }
        } catch (IOException e) {
            // Client gone.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(server);
            closeQuietly(client);
        }
    }

    /** A reply and the moment the queue model lets it go. */
    private record Timed(long releaseNanos, byte[] bytes) {
        static final Timed END = new Timed(0, new byte[0]);
    }

    /** Reads one whole reply into {@code reply}; false at end of stream before its first byte. */
    static boolean readReply(InputStream in, ByteArrayOutputStream reply) throws IOException {
        String line = readLine(in, reply);
        if (line == null) {
            return false;
        }
        while (line.startsWith("VALUE ") || line.startsWith("STAT ")) {
            if (line.startsWith("VALUE ")) {
                String[] parts = line.split(" ");
                copy(in, reply, Integer.parseInt(parts[3]) + 2);
            }
            line = readLine(in, reply);
            if (line == null) {
                throw new IOException("backend closed inside a multi-line reply");
            }
        }
        if (line.startsWith("VA ")) {
            int end = line.indexOf(' ', 3);
            copy(in, reply, Integer.parseInt(end < 0 ? line.substring(3) : line.substring(3, end)) + 2);
        }
        return true;
    }

    private static String readLine(InputStream in, ByteArrayOutputStream reply) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (line.length() == 0 && previous < 0) {
                    return null;
                }
                throw new IOException("backend closed inside a line");
            }
            reply.write(b);
            if (previous == '\r' && b == '\n') {
                line.setLength(line.length() - 1);
                return line.toString();
            }
            line.append((char) b);
            previous = b;
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream reply, int bytes) throws IOException {
        byte[] data = in.readNBytes(bytes);
        if (data.length != bytes) {
            throw new IOException("backend closed inside a value: " + data.length + " of " + bytes + " bytes");
        }
        reply.write(data);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Already closed.
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            listener.close();
        } catch (IOException e) {
            // Closing anyway.
        }
        sockets.forEach(SlowShim::closeQuietly);
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "SlowShim[" + name + " " + address() + " -> " + backend + ", "
                + emulation.name().toLowerCase() + "]";
    }

    /** ASCII bytes of a string (protocol lines). */
    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
