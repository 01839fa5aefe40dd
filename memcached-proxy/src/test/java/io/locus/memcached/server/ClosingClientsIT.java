package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ManyKeys;
import io.locus.memcached.testing.RawClient;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of clients each send a get of 20,000 keys to the full proxy (the runnable jar) and close at once, half with
 * a reset and half with an orderly close; meanwhile another client's {@code set} and {@code get} keep being answered,
 * each within 5 s, and the proxy's resident set stays bounded. Afterwards the proxy still answers such a get whole.
 *
 * <p>The heap is capped ({@code -Xmx256m}), so that the resident set shows what the proxy keeps rather than how far G1
 * lets an uncapped heap grow before it collects: work the proxy kept for gone clients would exhaust that heap.
 */
class ClosingClientsIT {
    static final Path DIR = Path.of("target", "it", "closing-clients");
    static final int CLIENTS = 300;
    static final int KEYS = 20_000;
    /**
     * Liveness, not speed: five times {@code backend.timeout}. The slowest exchange falls in the burst, while the one I/O
     * thread reads and parses the 300 request lines (about 60 MB); 0.75 to 3.0 s in eight runs.
     */
    static final int WITNESS_TIMEOUT_MILLIS = 5000;

    static final long RSS_BOUND_KIB = 512 * 1024;

    @Test
    void closingClientsOfHugeGets_doNotStarveAnother_norGrowTheProxy() throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR);
                RunnableProxy proxy = RunnableProxy.start(
                        "locus-proxy-closing", DIR.resolve("proxy"), servers.addresses(), "", List.of("-Xmx256m"));
                RawClient witness = new RawClient(proxy.address).readTimeout(WITNESS_TIMEOUT_MILLIS)) {
            assertEquals("", witness.exchange(ManyKeys.sets(KEYS)));
            byte[] hugeGet = ManyKeys.get(KEYS).getBytes(StandardCharsets.ISO_8859_1);
            long rssBefore = proxy.rssKib();
            AtomicInteger sent = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> clients = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                boolean reset = i % 2 == 0;
                clients.add(pool.submit(() -> {
                    try (Socket s = new Socket()) {
                        s.connect(proxy.address, 2000);
                        if (reset) {
                            s.setSoLinger(true, 0); // close() sends RST: the proxy sees the connection gone
                        }
                        OutputStream out = s.getOutputStream();
                        out.write(hugeGet);
                        out.flush();
                        sent.incrementAndGet();
                    }
                    return null;
                }));
            }
            pool.shutdown();
            long peakRss = rssBefore;
            long slowestMillis = 0;
            int checks = 0;
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // The witness runs while the clients send and for 10 s after the last one closed.
            long quietUntil = Long.MAX_VALUE;
            while (System.nanoTime() < Math.min(end, quietUntil)) {
                String value = "w" + checks;
                long start = System.nanoTime();
                String reply =
                        witness.exchange("set witness 0 0 " + value.length() + "\r\n" + value + "\r\nget witness\r\n");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals(
                        "STORED\r\nVALUE witness 0 " + value.length() + "\r\n" + value + "\r\nEND\r\n",
                        reply,
                        "witness check " + checks);
                slowestMillis = Math.max(slowestMillis, millis);
                checks++;
                peakRss = Math.max(peakRss, proxy.rssKib());
                if (quietUntil == Long.MAX_VALUE && pool.isTerminated()) {
                    quietUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                }
                Thread.sleep(50);
            }
            for (Future<?> f : clients) {
                f.get(1, TimeUnit.SECONDS);
            }
            assertTrue(pool.isTerminated(), "the closing clients finished within 120 s");
            System.out.printf(
                    "ClosingClientsIT: %d clients sent a get of %d keys and closed; %d witness checks, slowest %d ms;"
                            + " proxy RSS %d MiB before, peak %d MiB%n",
                    sent.get(), KEYS, checks, slowestMillis, rssBefore / 1024, peakRss / 1024);
            assertEquals(CLIENTS, sent.get());
            assertTrue(peakRss < RSS_BOUND_KIB, "proxy RSS peaked at " + peakRss / 1024 + " MiB");
            try (Socket s = new Socket()) {
                s.connect(proxy.address, 2000);
                s.setSoTimeout(10_000);
                s.getOutputStream().write(hugeGet);
                String reply = ManyKeys.readReply(new BufferedInputStream(s.getInputStream()));
                assertEquals(ManyKeys.expectedReply(KEYS), reply, "a get of 20,000 keys afterwards");
            } catch (IOException e) {
                throw new AssertionError("a get of 20,000 keys afterwards", e);
            }
        }
    }
}
