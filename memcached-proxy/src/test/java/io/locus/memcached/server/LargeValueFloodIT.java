package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.RawClient;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A flood of 1 MB values on the runnable jar (heap capped at 256 MB): one client pipelines 1,000 gets of 1 MB values
 * (1 GB of replies) and does not read, while four others write and read 1 MB values as fast as they can. The proxy's
 * resident set stays bounded (it stops dispatching the silent client's requests instead of buffering a gigabyte),
 * the other clients are served byte-exact, and once the silent client reads, every one of its 1,000 replies arrives,
 * in order, byte-exact: nothing is lost.
 */
class LargeValueFloodIT {
    static final Path DIR = Path.of("target", "it", "flood");
    static final int VALUE = 1_000_000;
    static final int KEYS = 20;
    static final int SILENT_GETS = 1_000;

    private static byte[] value(String key) {
        byte[] v = new byte[VALUE];
        byte[] k = key.getBytes(StandardCharsets.ISO_8859_1);
        for (int i = 0; i < VALUE; i++) {
            v[i] = i % 64 < k.length ? k[i % 64] : (byte) ('a' + (i * 31 + k.length) % 26);
        }
        return v;
    }

    /** A blocking client for values too large for {@link RawClient}'s buffered exchanges. */
    static final class BigClient implements AutoCloseable {
        final Socket socket = new Socket();
        final OutputStream out;
        final DataInputStream in;

        BigClient(InetSocketAddress address) throws IOException {
            socket.connect(address, 2000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            out = socket.getOutputStream();
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        }

        void set(String key, byte[] v) throws IOException {
            out.write(("set " + key + " 0 0 " + v.length + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(v);
            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String reply = line();
            if (!reply.equals("STORED")) {
                throw new IOException("set " + key + ": " + reply);
            }
        }

        /** Reads one {@code get} reply: the value, or null for a miss. */
        byte[] readValue(String key) throws IOException {
            String head = line();
            if (head.equals("END")) {
                return null;
            }
            String[] p = head.split(" ");
            if (!p[0].equals("VALUE") || !p[1].equals(key)) {
                throw new IOException("get " + key + ": " + head);
            }
            byte[] v = new byte[Integer.parseInt(p[3])];
            in.readFully(v);
            String crlfEnd = line() + "|" + line();
            if (!crlfEnd.equals("|END")) {
                throw new IOException("get " + key + ": after the value " + crlfEnd);
            }
            return v;
        }

        String line() throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != '\n') {
                if (c < 0) {
                    throw new IOException("connection closed");
                }
                if (c != '\r') {
                    b.write(c);
                }
            }
            return b.toString(StandardCharsets.ISO_8859_1);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void silentClientAndLargeValueFlood_memoryBounded_nothingLost() throws Exception {
        Files.createDirectories(DIR);
        MemcachedConfig big = new MemcachedConfig(256, 2, 1024 * 1024, List.of());
        try (MemcachedServers servers = MemcachedServers.start(2, big, DIR);
                RunnableProxy proxy = RunnableProxy.start(
                        "locus-proxy-flood",
                        DIR,
                        servers.addresses(),
                        "local:\n  capacity_bytes: 16m\n",
                        List.of("-Xmx256m"))) {
            InetSocketAddress address = proxy.address;
            try (BigClient c = new BigClient(address)) {
                for (int i = 0; i < KEYS; i++) {
                    c.set("big:" + i, value("big:" + i));
                }
            }
            long before = proxy.rssKib();
            AtomicLong peak = new AtomicLong(before);
            try (BigClient silent = new BigClient(address)) {
                StringBuilder gets = new StringBuilder();
                for (int i = 0; i < SILENT_GETS; i++) {
                    gets.append("get big:").append(i % KEYS).append("\r\n");
                }
                silent.out.write(
                        gets.toString().getBytes(StandardCharsets.ISO_8859_1)); // 14 KB: one read for the proxy
                silent.out.flush();

                AtomicReference<Throwable> failure = new AtomicReference<>();
                AtomicLong floodOps = new AtomicLong();
                List<Thread> flood = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int id = t;
                    Thread th = new Thread(
                            () -> {
                                try (BigClient c = new BigClient(address)) {
                                    for (int i = 0; i < 40; i++) {
                                        String key = "flood:" + id + ":" + (i % 5);
                                        byte[] v = value(key + ":" + i);
                                        c.set(key, v);
                                        c.out.write(("get " + key + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                                        c.out.flush();
                                        assertArrayEquals(v, c.readValue(key), key);
                                        floodOps.addAndGet(2);
                                    }
                                } catch (Throwable e) {
                                    failure.compareAndSet(null, e);
                                }
                            },
                            "flood-" + t);
                    th.start();
                    flood.add(th);
                }
                while (flood.stream().anyMatch(Thread::isAlive)) {
                    peak.accumulateAndGet(proxy.rssKib(), Math::max);
                    Thread.sleep(50);
                }
                assertNull(failure.get(), () -> "flood client failed: " + failure.get());
                for (int i = 0; i < 10; i++) { // the silent client still has not read a byte
                    peak.accumulateAndGet(proxy.rssKib(), Math::max);
                    Thread.sleep(50);
                }

                long started = System.nanoTime();
                for (int i = 0; i < SILENT_GETS; i++) {
                    String key = "big:" + (i % KEYS);
                    byte[] got = silent.readValue(key);
                    assertArrayEquals(value(key), got, "reply " + i + " of the silent client");
                    if (i % 100 == 0) {
                        peak.accumulateAndGet(proxy.rssKib(), Math::max);
                    }
                }
                double seconds = (System.nanoTime() - started) / 1e9;
                long growthMib = (peak.get() - before) / 1024;
                System.out.printf(
                        "large-value flood: %d flood ops of 1 MB by 4 clients, a silent client's %d gets of 1 MB "
                                + "(%.1f GB) all read back in %.1f s; proxy RSS %d MiB before, peak %d MiB (+%d MiB)%n",
                        floodOps.get(),
                        SILENT_GETS,
                        SILENT_GETS * (double) VALUE / 1e9,
                        seconds,
                        before / 1024,
                        peak.get() / 1024,
                        growthMib);
                assertEquals(4 * 40 * 2, floodOps.get());
                // Heap (256 MB), the pooled direct arenas and the JVM itself; the gigabyte of replies is never held.
                assertTrue(peak.get() / 1024 < 640, "proxy RSS peak " + peak.get() / 1024 + " MiB");
            }
            try (RawClient c = new RawClient(address)) {
                assertEquals(
                        "STORED\r\nVALUE k 0 1\r\nx\r\nEND\r\n",
                        c.exchange("set k 0 0 1\r\nx\r\nget k\r\n"),
                        "still serving");
            }
        }
    }
}
