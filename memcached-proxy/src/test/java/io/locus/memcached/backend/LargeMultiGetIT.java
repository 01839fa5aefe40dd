package io.locus.memcached.backend;

import static io.locus.memcached.backend.BackendTimeoutIT.awaitAllThreadsStopped;
import static io.locus.memcached.backend.BackendTimeoutIT.keyOn;
import static io.locus.memcached.backend.BackendTimeoutIT.signal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ManyKeys;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A get of 10,000 keys through the full proxy with {@code backend.timeout: 500ms} (its missing keys fetched in
 * batches): answered with the stored keys' values and nothing for the rest, as memcached answers it; with a backend
 * frozen (SIGSTOP) before or while its batches are on their way, answered {@code SERVER_ERROR backend timeout} within
 * the timeout and some slack, every other reply intact; served again once the backend resumes.
 */
class LargeMultiGetIT {
    static final Path DIR = Path.of("target", "it", "large-multi-get");
    static final int KEYS = 10_000;
    static final long TIMEOUT_MILLIS = 500;
    /** Liveness, not speed: a reply later than this is a hang. */
    static final int READ_TIMEOUT_MILLIS = (int) (10 * TIMEOUT_MILLIS);

    static final String TIMEOUT_REPLY = "SERVER_ERROR backend timeout\r\n";

    /** One client connection that pipelines gets and reads their replies one by one. */
    static final class Client implements AutoCloseable {
        private final Socket socket = new Socket();
        private final OutputStream out;
        private final InputStream in;

        Client(InetSocketAddress address) throws IOException {
            socket.connect(address, 2000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        }

        void send(String s) throws IOException {
            out.write(s.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        }

        String reply() throws IOException {
            return ManyKeys.readReply(in);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Milliseconds of one get of {@link #KEYS} keys, checked against the expected reply. */
    private static long timedGet(Client c, String label) throws IOException {
        long start = System.nanoTime();
        c.send(ManyKeys.get(KEYS));
        String reply = c.reply();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals(ManyKeys.expectedReply(KEYS), reply, label + ": " + ManyKeys.preview(reply));
        return millis;
    }

    @Test
    void getOf10000Keys_with500msTimeout_isAnswered_hitsExactMissesAbsent() throws Exception {
        String yaml = "backend: {timeout: " + TIMEOUT_MILLIS + "ms}\n";
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR.resolve("answered"));
                ProxyUnderTest full = ProxyUnderTest.withDeadlines(servers.addresses(), yaml);
                ProxyUnderTest passThrough = new ProxyUnderTest(servers.addresses(), "mode: pass_through\n" + yaml);
                RawClient writer = new RawClient(full.address);
                Client viaFull = new Client(full.address);
                Client viaPassThrough = new Client(passThrough.address)) {
            assertEquals("", writer.exchange(ManyKeys.sets(KEYS)));
            List<Long> fullMillis = new ArrayList<>();
            List<Long> passMillis = new ArrayList<>();
            for (int round = 0; round < 5; round++) {
                fullMillis.add(timedGet(viaFull, "full, round " + round));
                passMillis.add(timedGet(viaPassThrough, "pass-through, round " + round));
            }
            assertEquals("0", full.stats().get("locus_backend_timeouts"), "no batch was late");
            System.out.printf(
                    "LargeMultiGetIT: get of %d keys (%d stored), ms per round: full %s, pass-through %s%n",
                    KEYS, KEYS / ManyKeys.STORED_EVERY, fullMillis, passMillis);
        }
    }

    @Test
    void backendFrozenBeforeOrDuringTheBatches_answersTheTimeout_othersIntact_thenServesAgain() throws Exception {
        String yaml = "backend: {timeout: " + TIMEOUT_MILLIS + "ms, retry_interval: 50ms}\n";
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR.resolve("frozen"));
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(servers.addresses(), yaml);
                RawClient witness = new RawClient(proxy.address);
                Client getter = new Client(proxy.address)) {
            String onLive = keyOn(proxy, 1);
            assertEquals("", witness.exchange(ManyKeys.sets(KEYS)));
            assertEquals("STORED\r\n", witness.exchange("set " + onLive + " 0 0 4\r\nlive\r\n"));
            String witnessReply = "VALUE " + onLive + " 0 4\r\nlive\r\nEND\r\n";
            timedGet(getter, "before the freeze");
            MemcachedServer frozen = servers.get(0);

            // Frozen before the get: the batches to the frozen backend never come back.
            signal("STOP", frozen.pid());
            awaitAllThreadsStopped(frozen.pid());
            try {
                long start = System.nanoTime();
                getter.send(ManyKeys.get(KEYS));
                assertEquals(witnessReply, witness.exchange("get " + onLive + "\r\n"), "the live backend meanwhile");
                assertEquals(TIMEOUT_REPLY, getter.reply(), "a get with keys on the frozen backend");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(millis < 5 * TIMEOUT_MILLIS, "answered " + millis + " ms after the get");
            } finally {
                signal("CONT", frozen.pid());
            }
            awaitServed(getter);

            // Frozen while eight pipelined gets are being fetched: each is answered whole or with the timeout.
            int gets = 8;
            getter.send(ManyKeys.get(KEYS).repeat(gets));
            List<String> replies = new ArrayList<>();
            replies.add(getter.reply());
            signal("STOP", frozen.pid());
            long frozenAt = System.nanoTime();
            try {
                awaitAllThreadsStopped(frozen.pid());
                assertEquals(witnessReply, witness.exchange("get " + onLive + "\r\n"), "the live backend meanwhile");
                while (replies.size() < gets) {
                    replies.add(getter.reply());
                }
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozenAt);
                assertTrue(millis < 5 * TIMEOUT_MILLIS, "the last reply came " + millis + " ms after the freeze");
            } finally {
                signal("CONT", frozen.pid());
            }
            int whole = 0;
            for (String r : replies) {
                assertTrue(
                        r.equals(ManyKeys.expectedReply(KEYS)) || r.equals(TIMEOUT_REPLY),
                        "a whole reply or the timeout: " + ManyKeys.preview(r));
                whole += r.equals(TIMEOUT_REPLY) ? 0 : 1;
            }
            System.out.printf(
                    "LargeMultiGetIT: %d of %d pipelined gets answered whole, the rest timed out at the freeze%n",
                    whole, gets);

            // Resumed: served again, and the other clients were never disturbed.
            awaitServed(getter);
            timedGet(getter, "after the freeze");
            assertEquals(witnessReply, witness.exchange("get " + onLive + "\r\n"));
        }
    }

    /** Gets until one is answered whole (the proxy reconnects to a resumed backend on the next request). */
    private static void awaitServed(Client c) throws Exception {
        String reply = "";
        for (int i = 0; i < 100 && !reply.equals(ManyKeys.expectedReply(KEYS)); i++) {
            if (i > 0) {
                Thread.sleep(50);
            }
            c.send(ManyKeys.get(KEYS));
            reply = c.reply();
            assertTrue(
                    reply.equals(ManyKeys.expectedReply(KEYS)) || reply.startsWith("SERVER_ERROR "),
                    ManyKeys.preview(reply));
        }
        assertEquals(ManyKeys.expectedReply(KEYS), reply, "served again after the backend resumed");
    }
}
