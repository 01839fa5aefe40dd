package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A bounded fuzz through the proxy to real memcached servers: 100,000 short random and mutated command streams (one to
 * six commands each, most of them mutated), 50 streams pipelined back to back on one connection, eight connections at
 * a time. Meanwhile a witness connection keeps rewriting and reading back its own keys with random binary values; it
 * must always read exactly what it wrote, no fuzz connection may ever see a witness key (no reply crosses
 * connections), every fuzz connection must be answered and closed after its client half-closes (no hang), no backend
 * request may time out (the proxy never forwards bytes that put a shared backend connection out of step), and the
 * proxy must still answer at the end. Seeded per connection; the seed is printed.
 */
class FuzzIT {
    static final long SEED = Long.getLong("locus.fuzz.seed", 4242L);
    static final int STREAMS = Integer.getInteger("locus.fuzz.streams", 100_000);
    static final int STREAMS_PER_CONNECTION = 50;
    static final int PARALLEL = 8;
    static final int WITNESS_KEYS = 16;
    static final Path DIR = Path.of("target", "it", "fuzz");

    static final String[] TEMPLATES = {
        "get fz%d\r\n",
        "gets fz%d fz%d fz%d\r\n",
        "gat 10 fz%d fz%d\r\n",
        "set fz%d 0 0 5\r\nhello\r\n",
        "add fz%d 1 0 2\r\nab\r\n",
        "replace fz%d 0 0 1\r\nz\r\n",
        "append fz%d 0 0 3\r\nxyz\r\n",
        "prepend fz%d 0 0 1\r\n<\r\n",
        "cas fz%d 0 0 1 %d\r\nc\r\n",
        "delete fz%d\r\n",
        "incr fz%d %d\r\n",
        "decr fz%d 1 noreply\r\n",
        "touch fz%d 100\r\n",
        "set fz%d 0 0 3 noreply\r\nnor\r\n",
        "mg fz%d v f t c\r\n",
        "mg fz%d v q k O%d\r\n",
        "ms fz%d 4 T0 F3\r\nmeta\r\n",
        "ms fz%d 2 q MA\r\nqq\r\n",
        "md fz%d q\r\n",
        "ma fz%d N0 J%d v\r\n",
        "me fz%d\r\n",
        "mn\r\n",
        "version\r\n",
        "verbosity 1\r\n",
        "stats\r\n",
        "mg fz%d v Pten L%dms\r\n",
        "dlctx tenant=t%d deadline=~%dms\r\n",
        "stats tenants\r\n",
        "stats deadline\r\n",
        "get fz%d fz%d fz%d fz%d fz%d fz%d fz%d fz%d\r\n",
    };

    @Test
    void hundredThousandMutatedStreams_neverCrashTheProxyNorCorruptAnotherConnection() throws Exception {
        fuzz(false, STREAMS);
    }

    /** The same against the full proxy (cache, schedulers), fewer streams, with PARANOID leak detection. */
    @Test
    void mutatedStreams_fullProxy_neverCrashNorServeAStaleWitness() throws Exception {
        ResourceLeakDetector.Level previousLevel = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        try {
            fuzz(true, STREAMS / 10);
        } finally {
            // The level is JVM-wide; later tests (LatencyIT) must not pay for PARANOID tracking.
            ResourceLeakDetector.setLevel(previousLevel);
        }
    }

    private void fuzz(boolean fullProxy, int streams) throws Exception {
        System.out.println("fuzz seed " + SEED + " (rerun with -Dlocus.fuzz.seed=" + SEED + ")");
        long start = System.nanoTime();
        int connections = (streams + STREAMS_PER_CONNECTION - 1) / STREAMS_PER_CONNECTION;
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                ProxyUnderTest proxy = fullProxy
                        ? ProxyUnderTest.withDeadlines(servers.addresses(), "backend: {timeout: 10s}\n")
                        : new ProxyUnderTest(servers.addresses(), "backend: {timeout: 10s}\n");
                RawClient witness = new RawClient(proxy.address)) {
            Random witnessRandom = new Random(SEED);
            byte[][] values = new byte[WITNESS_KEYS][];
            for (int k = 0; k < WITNESS_KEYS; k++) {
                values[k] = writeWitness(witness, witnessRandom, k);
            }
            AtomicInteger nextConnection = new AtomicInteger();
            AtomicLong replyBytes = new AtomicLong();
            AtomicLong errorReplies = new AtomicLong();
            AtomicLong commands = new AtomicLong();
            List<String> problems = Collections.synchronizedList(new ArrayList<>());
            ExecutorService pool = Executors.newFixedThreadPool(PARALLEL);
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < PARALLEL; w++) {
                workers.add(pool.submit(() -> {
                    int c;
                    while ((c = nextConnection.getAndIncrement()) < connections && problems.isEmpty()) {
                        Random rnd = new Random(SEED * 1_000_003L + c);
                        int n = Math.min(STREAMS_PER_CONNECTION, streams - c * STREAMS_PER_CONNECTION);
                        ByteArrayOutputStream all = new ByteArrayOutputStream();
                        for (int i = 0; i < n; i++) {
                            int length = 1 + rnd.nextInt(6);
                            all.writeBytes(fuzzStream(rnd, length));
                            commands.addAndGet(length);
                        }
                        byte[] got = sendAndReadToEof(proxy, all.toByteArray(), c, problems);
                        replyBytes.addAndGet(got.length);
                        String reply = new String(got, StandardCharsets.ISO_8859_1);
                        errorReplies.addAndGet(count(reply, "ERROR"));
                        if (reply.contains("witness:")) {
                            problems.add("fuzz connection " + c + " received a witness key: " + RawClient.preview(got));
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            int witnessChecks = 0;
            while (!pool.isTerminated() || witnessChecks < WITNESS_KEYS) {
                int k = witnessChecks % WITNESS_KEYS;
                if (witnessChecks % 3 == 0) {
                    values[k] = writeWitness(witness, witnessRandom, k);
                }
                ByteArrayOutputStream expected = new ByteArrayOutputStream();
                expected.writeBytes(RawClient.bytes("VALUE witness:" + k + " 7 " + values[k].length + "\r\n"));
                expected.writeBytes(values[k]);
                expected.writeBytes(RawClient.bytes("\r\nEND\r\n"));
                byte[] got = witness.exchange(RawClient.bytes("get witness:" + k + "\r\n"));
                assertEquals(
                        RawClient.preview(expected.toByteArray()),
                        RawClient.preview(got),
                        "witness read " + witnessChecks + " (seed " + SEED + ")");
                assertTrue(
                        java.util.Arrays.equals(expected.toByteArray(), got), "witness bytes, read " + witnessChecks);
                witnessChecks++;
            }
            for (Future<?> f : workers) {
                f.get();
            }
            assertEquals(List.of(), problems);
            assertEquals(
                    "VERSION 1.6.0\r\n",
                    new String(witness.exchange(RawClient.bytes("version\r\n")), StandardCharsets.ISO_8859_1),
                    "proxy still serves");
            // A backend connection put out of step by forwarded garbage never answers again; 10 s (not memcached's
            // usual
            // microseconds) keeps machine stalls on a loaded build box from counting.
            assertEquals("0", proxy.stats().get("locus_backend_timeouts"), "no backend connection out of step");
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            System.out.printf(
                    "fuzz%s: %d streams (%d commands) on %d connections in %d s, %d reply bytes, %d error "
                            + "replies, %d witness reads%n",
                    fullProxy ? " (full proxy)" : "",
                    streams,
                    commands.get(),
                    connections,
                    seconds,
                    replyBytes.get(),
                    errorReplies.get(),
                    witnessChecks);
            assertTrue(errorReplies.get() > 0, "the fuzz produced malformed input the proxy rejected");
        }
    }

    /** Sets witness key {@code k} to fresh random binary bytes (CR and LF included) and returns them. */
    private static byte[] writeWitness(RawClient witness, Random rnd, int k) throws java.io.IOException {
        byte[] value = new byte[100 + rnd.nextInt(3000)];
        rnd.nextBytes(value);
        ByteArrayOutputStream set = new ByteArrayOutputStream();
        set.writeBytes(RawClient.bytes("set witness:" + k + " 7 0 " + value.length + "\r\n"));
        set.writeBytes(value);
        set.writeBytes(RawClient.bytes("\r\n"));
        assertEquals("STORED\r\n", new String(witness.exchange(set.toByteArray()), StandardCharsets.ISO_8859_1));
        return value;
    }

    /**
     * Sends one connection's streams, half-closes, and reads until the proxy closes. A proxy that stays silent for
     * 10 s without closing is a problem; a reset (the proxy may close on binary magic) is not.
     */
    private static byte[] sendAndReadToEof(ProxyUnderTest proxy, byte[] bytes, int c, List<String> problems) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(proxy.address, 5000);
            s.setSoTimeout(10_000);
            // Write while reading: a long stream must not dead-lock against the proxy's back-pressure.
            Thread writer = new Thread(() -> {
                try {
                    s.getOutputStream().write(bytes);
                    s.shutdownOutput();
                } catch (java.io.IOException e) {
                    // the proxy closed first (binary magic): allowed
                }
            });
            writer.start();
            byte[] buf = new byte[65536];
            java.io.InputStream in = s.getInputStream();
            try {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    got.write(buf, 0, n);
                }
            } catch (java.net.SocketTimeoutException e) {
                problems.add("fuzz connection " + c + ": no close within 10 s after " + got.size() + " reply bytes");
            } catch (java.io.IOException e) {
                // reset by the proxy after a close: what was read is the answer
            }
            writer.join();
        } catch (java.io.IOException | InterruptedException e) {
            problems.add("fuzz connection " + c + ": " + e);
        }
        return got.toByteArray();
    }

    /** One stream of {@code commands} commands, most of them mutated. */
    static byte[] fuzzStream(Random rnd, int commands) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < commands; i++) {
            String t = TEMPLATES[rnd.nextInt(TEMPLATES.length)];
            String cmd = t.replace("%d", Integer.toString(rnd.nextInt(50)));
            byte[] b = cmd.getBytes(StandardCharsets.ISO_8859_1);
            int kind = rnd.nextInt(10);
            if (kind == 0 && b.length > 0) {
                b[rnd.nextInt(b.length)] = (byte) rnd.nextInt(256); // flip a byte
            } else if (kind == 1 && b.length > 1) {
                b = java.util.Arrays.copyOf(b, rnd.nextInt(b.length)); // truncate
            } else if (kind == 2) {
                byte[] garbage = new byte[rnd.nextInt(64)];
                rnd.nextBytes(garbage);
                out.writeBytes(garbage);
            } else if (kind == 3) {
                b = RawClient.bytes(cmd.replaceFirst("[0-9]+", Long.toString(rnd.nextLong()))); // absurd numbers
            } else if (kind == 4) {
                b = RawClient.bytes(cmd.replace(" ", "  ").replace("\r\n", "\n"));
            } else if (kind == 5) {
                b = RawClient.bytes("get " + "k".repeat(200 + rnd.nextInt(100)) + "\r\n");
            }
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
