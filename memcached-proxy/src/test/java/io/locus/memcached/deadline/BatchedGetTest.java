package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.BatchSender;
import io.locus.memcached.backend.ProxyRequest;
import io.locus.memcached.backend.ReplySink;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.MemcachedRequestDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.Resolution;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

/**
 * A full-mode multi-get against a scripted backend: its missing keys leave in batches within the connection's share,
 * one reply whatever happens (all answered, a failure, the request's timeout, its client gone), and another
 * connection's request is not kept waiting behind its backlog.
 */
class BatchedGetTest {
    private static final String YAML =
            "pool:\n  servers: [\"127.0.0.1:1:1\", \"127.0.0.1:2:1\"]\nbackend: {timeout: 500ms}\n";

    /** A batch as the backend saw it. */
    private record Sent(int backend, List<String> keys, ReplySink reply, long connectionId) {}

    private final List<Sent> sent = new ArrayList<>();
    private final List<Sent> answered = new ArrayList<>();
    private final List<String> singleRequests = new ArrayList<>();
    private final List<FutureTask<?>> timers = new ArrayList<>();
    /** What reached the backends, in order: {@code batch <backend>} or {@code request <key>}. */
    private final List<String> log = new ArrayList<>();
    /** {@code sched.window}'s default: batches in flight per backend. */
    private static final int WINDOW = 8;

    private final class Backends implements RequestHandler, BatchSender {
        @Override
        public void handle(ProxyRequest pr, ReplySink reply) {
            singleRequests.add(pr.request().key());
            log.add("request " + pr.request().key());
            pr.request().release();
        }

        @Override
        public BatchSender batches() {
            return this;
        }

        @Override
        public void send(int backend, ByteBuf wire, ReplySink reply, long connectionId) {
            String text = wire.toString(StandardCharsets.ISO_8859_1);
            wire.release();
            assertTrue(text.endsWith("mn\r\n"), text);
            List<String> keys = new ArrayList<>();
            for (String line : text.split("\r\n")) {
                if (line.startsWith("mg ")) {
                    assertTrue(line.endsWith(" v f t"), line);
                    keys.add(line.split(" ")[1]);
                }
            }
            sent.add(new Sent(backend, keys, reply, connectionId));
            log.add("batch " + backend + (connectionId == 2 ? " of 2" : ""));
        }

        @Override
        public Future<?> schedule(Runnable task, long delayNanos) {
            FutureTask<?> t = new FutureTask<>(task, null);
            timers.add(t);
            return t;
        }
    }

    /** A client's sink. */
    private static final class Client implements ReplySink {
        private final List<String> replies = new ArrayList<>();
        private boolean closed;

        @Override
        public void complete(ByteBuf reply) {
            replies.add(reply == null ? null : reply.toString(StandardCharsets.ISO_8859_1));
            if (reply != null) {
                reply.release();
            }
        }

        @Override
        public void completeLine(String line) {
            replies.add(line + "\r\n");
        }

        @Override
        public void completeSilently() {
            replies.add(null);
        }

        @Override
        public boolean abandoned() {
            return closed;
        }
    }

    private final ProxyConfig config = ConfigLoader.parse(YAML, "test.yaml");
    private final DeadlineHandler handler = new DeadlineHandler(
            new Backends(), new DeadlineServices(config, BackendPool.ringFor(config), new ProxyStats()));

    private static String get(int from, int to) {
        StringBuilder line = new StringBuilder("get");
        for (int i = from; i < to; i++) {
            line.append(" k").append(i);
        }
        return line.append("\r\n").toString();
    }

    private Client send(long connection, String line) {
        EmbeddedChannel ch = new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS));
        ch.writeInbound(Unpooled.copiedBuffer(line, StandardCharsets.ISO_8859_1));
        MemcachedRequest req = ch.readInbound();
        Client c = new Client();
        handler.handle(
                new ProxyRequest(
                        req, new Resolution("default", Deadline.nominalBestEffort()), System.nanoTime(), connection),
                c);
        return c;
    }

    /** Answers the oldest unanswered batch: keys whose number is a multiple of 7 have the value {@code v<n>}. */
    private void answerOldest() {
        Sent s = sent.stream().filter(b -> !answered.contains(b)).findFirst().orElseThrow();
        answered.add(s);
        StringBuilder reply = new StringBuilder();
        for (String k : s.keys()) {
            int n = Integer.parseInt(k.substring(1));
            if (n % 7 == 0) {
                String v = "v" + n;
                reply.append("VA ")
                        .append(v.length())
                        .append(" f3 t-1\r\n")
                        .append(v)
                        .append("\r\n");
            } else {
                reply.append("EN\r\n");
            }
        }
        s.reply().complete(Unpooled.copiedBuffer(reply, StandardCharsets.ISO_8859_1));
    }

    private long unanswered(int backend) {
        return sent.stream()
                .filter(b -> b.backend() == backend && !answered.contains(b))
                .count();
    }

    @Test
    void missingKeys_leaveInBatchesWithinTheShare_andTheReplyIsInRequestOrder() {
        Client c = send(1, get(0, 1000).replace("\r\n", " k14 k3\r\n"));
        while (sent.size() > answered.size()) {
            for (int b = 0; b < 2; b++) {
                assertTrue(unanswered(b) <= WINDOW, "batches in flight at backend " + b);
                assertTrue(handler.scheduler(b).queueLength() <= ConnectionShares.SHARE, "queued at backend " + b);
            }
            answerOldest();
        }
        int keys = 0;
        for (Sent s : sent) {
            assertTrue(s.keys().size() <= BatchedGet.BATCH_KEYS, s.keys().size() + " keys in a batch");
            keys += s.keys().size();
        }
        assertEquals(1002, keys, "every key asked once per time the client named it");
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            if (i % 7 == 0) {
                expected.append("VALUE k")
                        .append(i)
                        .append(" 3 ")
                        .append(("v" + i).length())
                        .append("\r\nv");
                expected.append(i).append("\r\n");
            }
        }
        expected.append("VALUE k14 3 3\r\nv14\r\nEND\r\n");
        assertEquals(List.of(expected.toString()), c.replies);
        int before = sent.size();
        Client again = send(1, "get k0 k7 k14\r\n");
        assertEquals(before, sent.size(), "the values fetched are in the cache now");
        assertEquals(
                List.of("VALUE k0 3 2\r\nv0\r\nVALUE k7 3 2\r\nv7\r\nVALUE k14 3 3\r\nv14\r\nEND\r\n"), again.replies);
    }

    @Test
    void timeout_answersOnce_andWithdrawsWhatIsNotSent() {
        Client c = send(1, get(0, 10_000));
        assertEquals(2 * WINDOW, sent.size(), "the window at each backend");
        for (int b = 0; b < 2; b++) {
            assertEquals(ConnectionShares.SHARE, handler.scheduler(b).queueLength(), "the connection's share");
        }
        assertEquals(1, timers.size());
        timers.get(0).run();
        assertEquals(List.of(BatchedGet.TIMEOUT + "\r\n"), c.replies);
        for (int b = 0; b < 2; b++) {
            assertEquals(0, handler.scheduler(b).queueLength());
        }
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        assertEquals(2 * WINDOW, sent.size(), "nothing more is sent for an answered request");
        assertEquals(1, c.replies.size());
        for (int b = 0; b < 2; b++) {
            assertEquals(0, handler.scheduler(b).inflight());
        }
    }

    @Test
    void aBatchThatFails_answersItsLine_once() {
        Client c = send(1, get(0, 10_000));
        sent.get(0).reply().completeLine("SERVER_ERROR backend unavailable");
        assertEquals(List.of("SERVER_ERROR backend unavailable\r\n"), c.replies);
        answered.add(sent.get(0));
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        assertEquals(2 * WINDOW, sent.size(), "nothing more is sent for an answered request");
        assertEquals(1, c.replies.size());
        assertTrue(timers.get(0).isCancelled());
    }

    @Test
    void aClosedClientsWork_isDropped() {
        Client c = send(1, get(0, 10_000));
        c.closed = true;
        answerOldest();
        assertEquals(2 * WINDOW, sent.size(), "no batch is sent once the client is gone");
        assertEquals(1, c.replies.size());
        assertNull(c.replies.get(0), "completed without a reply nobody reads");
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        assertEquals(2 * WINDOW, sent.size());
    }

    @Test
    void aBurstOfHugeGets_isFetchedAFewAtATime_theRestTimeOutUnstarted() {
        List<Client> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            clients.add(send(c, get(0, 20_000)));
        }
        int started = FetchQueue.KEYS / 20_000;
        assertEquals(2 * WINDOW, sent.size());
        for (int b = 0; b < 2; b++) {
            assertEquals(started * ConnectionShares.SHARE, handler.scheduler(b).queueLength(), "each get's share");
        }
        assertTrue(sent.stream().mapToLong(Sent::connectionId).allMatch(c -> c < started));
        send(99, "get other\r\n");
        // The windows are full: at its backend, the batches queued before it go first, then it takes the next free
        // place; no batch offered after it goes ahead.
        for (int i = 0; i < 2 * (started * ConnectionShares.SHARE + 1) && singleRequests.isEmpty(); i++) {
            answerOldest();
        }
        assertEquals(List.of("other"), singleRequests, "a single get waits for the queued batches, not the backlog");
        int sentBeforeTimeouts = sent.size();
        send(7, "set k1 0 0 1\r\nx\r\n");
        assertFalse(singleRequests.contains("k1"), "a later request waits behind the get still waiting for its turn");
        timers.forEach(FutureTask::run);
        for (Client c : clients) {
            assertEquals(List.of(BatchedGet.TIMEOUT + "\r\n"), c.replies);
        }
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        assertEquals(sentBeforeTimeouts, sent.size(), "queued batches withdrawn, and the gets that waited cost none");
        assertTrue(singleRequests.contains("k1"), "its get answered by its timeout, the set went on");
    }

    @Test
    void aLaterWriteOfTheConnection_goesAfterEveryBatchOfItsGet() {
        send(1, get(0, 10_000));
        send(1, "set k5 0 0 1\r\nx\r\n");
        assertEquals(List.of(), singleRequests, "the set would overtake the batches waiting for the share");
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        assertEquals(List.of("k5"), singleRequests);
        String setAt = "batch " + BackendPool.ringFor(config).serverFor("k5".getBytes(StandardCharsets.US_ASCII));
        assertTrue(log.indexOf("request k5") > log.lastIndexOf(setAt), "after the last batch at its backend: " + log);
        assertEquals(10_000, sent.stream().mapToInt(b -> b.keys().size()).sum());
    }

    @Test
    void aFlushAfterAQueuedBatch_reachesTheBackendsAfterIt() {
        send(1, get(0, 10_000)); // fills the windows
        send(2, "get k0 k1 k2 k3\r\n");
        send(2, "flush_all\r\n");
        while (sent.size() > answered.size()) {
            answerOldest();
        }
        int flush = log.indexOf("request null");
        assertTrue(flush > log.lastIndexOf("batch 0 of 2") && flush > log.lastIndexOf("batch 1 of 2"), log.toString());
    }

    @Test
    void anotherConnectionsRequest_waitsForTheShareAtMost_notTheBacklog() {
        send(1, get(0, 10_000));
        send(2, "get other\r\n");
        // The window is full: the connection's two queued batches at its backend go first, then it.
        for (int i = 0; i < 2 * (ConnectionShares.SHARE + 1) && singleRequests.isEmpty(); i++) {
            answerOldest();
        }
        assertEquals(List.of("other"), singleRequests, "the other connection's fill");
        assertTrue(sent.size() < 2 * (WINDOW + ConnectionShares.SHARE + 1), sent.size() + " batches went before it");
    }
}
