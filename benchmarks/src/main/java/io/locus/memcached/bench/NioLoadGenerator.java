package io.locus.memcached.bench;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop generator that stays faithful at overload with two threads: a dispatcher draws one Poisson arrival
 * stream at the total rate and sends each request at its intended time on an idle connection of its endpoint's pool;
 * a reactor thread ({@link Selector}) reads the replies. Each connection has at most one request in flight, so a fast
 * reply (a refusal, an in-proxy cache hit) is never held behind a slow one on the same connection (memcached's text
 * protocol answers a connection's requests in order). Connections are opened on demand up to
 * {@link LoadGenerator.Settings#connections()} in all (split evenly over the endpoints); with all of an endpoint's busy a request waits in the generator in
 * arrival order, and that wait is part of its latency (measured from the intended start, as in {@link LoadGenerator}).
 *
 * <p>Why not {@link LoadGenerator} with a rate: there each of its threads owns one connection and draws its own
 * arrivals, so when an admitted long-deadline request holds the connection, that thread's next arrivals start late
 * (generator-side head-of-line blocking) and are charged to the proxy; a population of independent clients would not
 * wait. Enough threads to avoid it (hundreds) overload a 2-core machine.
 *
 * <p>The rate ramps up over the first half of the warm-up (see {@code gap}). Accounting: a request counts when its intended start lies in the measured window; after the window the
 * generator sends nothing new and waits up to {@link #DRAIN_NANOS} for the answers. A counted request still unanswered
 * then is recorded by {@link OpStats#recordUnanswered} (a missed deadline, no latency sample), so a row whose backlog
 * never drains is not flattered by leaving its slowest requests out. A get that misses is followed by a set of the
 * value on the same connection (cache-aside), measured from when that set is sent.
 */
public final class NioLoadGenerator implements Generator {
    /** How long after the measured window the generator waits for the window's answers. */
    static final long DRAIN_NANOS = 1_000_000_000L;

    /** A reply this late (from the intended start) counts as slow in the summary's clustering figure. */
    static final long SLOW_NANOS = 20_000_000L;

    /** The width of the intervals the summary groups slow replies by. */
    static final long INTERVAL_NANOS = 100_000_000L;

    private final AtomicLong completed = new AtomicLong();
    private volatile String lastSummary = "";
    private volatile long[] lastAdmitted = new long[0];
    private volatile long[] lastMetFromSend = new long[0];

    /** Requests completed so far in this generator's runs (warm-up included), for progress lines. */
    public long completed() {
        return completed.get();
    }

    /** One line about the last run: connections opened, requests that waited for one, unanswered at the end. */
    @Override
    public String summary() {
        return lastSummary;
    }

    /**
     * For the last run and one tenant: of its admitted (not refused, answered) gets with a deadline, the fraction
     * whose value came back within the deadline counted from when the request was written rather than from its
     * intended start; NaN without any. A diagnostic only: the gap to the intended-start figure is the generator's own
     * lag (its dispatcher not scheduled in time on a loaded machine, or a wait for a free connection).
     */
    public double admittedMetFromSend(int tenant) {
        long[] a = lastAdmitted;
        return tenant >= a.length || a[tenant] == 0 ? Double.NaN : (double) lastMetFromSend[tenant] / a[tenant];
    }

    /**
     * Runs one load phase at {@code settings.ratePerSecond()} (must be > 0) and returns the measured window's stats.
     *
     * @throws InterruptedException if interrupted while waiting for the reactor
     * @throws IllegalArgumentException if the settings ask for a closed loop
     */
    public LoadGenerator.Result run(LoadGenerator.Target target, KeySource keys, LoadGenerator.Settings settings)
            throws InterruptedException {
        if (!(settings.ratePerSecond() > 0)) {
            throw new IllegalArgumentException(
                    "rate " + settings.ratePerSecond() + " (expected: > 0; the NIO generator is open loop only)");
        }
        int tenants = keys.tenants().size();
        long start = System.nanoTime() + 50_000_000L;
        long measureFrom = start + settings.warmupNanos();
        long end = measureFrom + settings.measureNanos();
        Run run;
        try {
            run = new Run(target, settings, tenants, measureFrom, end);
        } catch (IOException e) {
            throw new IllegalStateException("cannot open a selector", e);
        }
        Thread reactor = new Thread(run::react, "load-nio-" + target.label());
        reactor.setDaemon(true);
        reactor.start();
        try {
            run.dispatch(
                    keys.cursor(0, 1, settings.seed()),
                    new SplittableRandom(KeyHash.mix(settings.seed() ^ 0x2545F4914F6CDD1DL)),
                    start);
            long drainEnd = end + DRAIN_NANOS;
            while (run.pendingMeasured.get() > 0 && System.nanoTime() < drainEnd) {
                LockSupport.parkNanos(1_000_000L);
            }
        } finally {
            run.stop();
            reactor.join(10_000);
        }
        long unanswered = run.recordUnanswered();
        lastAdmitted = run.admitted.clone();
        lastMetFromSend = run.metFromSend.clone();
        lastSummary = String.format(
                java.util.Locale.ROOT,
                "%s: %d connections opened, %d requests of the window waited "
                        + "for a free connection, %d of the window unanswered %d ms after it; send lag behind the intended "
                        + "start p50 %d us, p99 %d us, max %d us; %s",
                target.label(),
                run.opened.get(),
                run.waited.get(),
                unanswered,
                DRAIN_NANOS / 1_000_000,
                run.lagMicros.getValueAtPercentile(50),
                run.lagMicros.getValueAtPercentile(99),
                run.lagMicros.getMaxValue(),
                slowClusters(run.slowByInterval));
        List<OpStats> merged = new ArrayList<>();
        for (int t = 0; t < tenants; t++) {
            OpStats sum = new OpStats();
            sum.add(run.stats[t]);
            sum.add(run.dispatcherStats[t]);
            merged.add(sum);
        }
        return new LoadGenerator.Result(merged, settings.measureNanos() / 1e9);
    }

    /**
     * How the window's slow replies spread over time, from their count per {@link #INTERVAL_NANOS} of intended start.
     * Why: a queue that is too slow makes late replies all through the window, a stall (of the machine, a process or a
     * collector) makes them in a few intervals; with 30,000 requests in 8 s one stall of about 180 ms alone sets p99 to
     * about 100 ms.
     */
    static String slowClusters(long[] slowByInterval) {
        long slow = 0;
        long worst = 0;
        int intervals = 0;
        for (long n : slowByInterval) {
            slow += n;
            worst = Math.max(worst, n);
            intervals += n > 0 ? 1 : 0;
        }
        if (slow == 0) {
            return "no reply of the window over " + SLOW_NANOS / 1_000_000 + " ms";
        }
        return String.format(
                java.util.Locale.ROOT,
                "%d replies of the window over %d ms, started in %d of its %d intervals of %d ms (%.0f%% in the worst)",
                slow,
                SLOW_NANOS / 1_000_000,
                intervals,
                slowByInterval.length,
                INTERVAL_NANOS / 1_000_000,
                100.0 * worst / slow);
    }

    /** One request: what to send and when it was meant to start. */
    static final class Request {
        final Access access;
        final boolean get;
        final long intendedNanos;
        final boolean measured;
        /** When its bytes were written (after any wait for a connection); for the send-clock diagnostic. */
        volatile long sentNanos;

        Request(Access access, boolean get, long intendedNanos, boolean measured) {
            this.access = access;
            this.get = get;
            this.intendedNanos = intendedNanos;
            this.measured = measured;
        }
    }

    /**
     * One endpoint's connections: idle ones and requests waiting for one. The dispatcher and the reactor both take
     * and return connections, so every decision is under this object's lock; the caller sends outside it.
     */
    static final class Pool<C> {
        private final int max;
        private final ArrayDeque<C> idle = new ArrayDeque<>();
        private final ArrayDeque<Request> waiting = new ArrayDeque<>();
        private int open;

        Pool(int max) {
            this.max = max;
        }

        /** What the dispatcher does with a new request. */
        enum Take {
            USE_IDLE,
            OPEN_NEW,
            WAIT
        }

        /** Decides for a new request; with {@code USE_IDLE} the connection is in {@code out[0]}. */
        synchronized Take take(Request request, Object[] out) {
            C c = idle.pollLast();
            if (c != null) {
                out[0] = c;
                return Take.USE_IDLE;
            }
            if (open < max) {
                open++;
                return Take.OPEN_NEW;
            }
            waiting.addLast(request);
            return Take.WAIT;
        }

        /** A connection is free again: the oldest waiting request to send on it, or null (it went idle). */
        synchronized Request release(C connection) {
            Request next = waiting.pollFirst();
            if (next == null) {
                idle.addLast(connection);
            }
            return next;
        }

        /** A connection broke or could not be opened: it no longer counts. */
        synchronized void lost() {
            open--;
        }

        /** Requests waiting now, removed (the end of a run). */
        synchronized List<Request> drainWaiting() {
            List<Request> out = new ArrayList<>(waiting);
            waiting.clear();
            return out;
        }

        synchronized int open() {
            return open;
        }
    }

    /** The outcome of parsing a connection's received bytes for the reply to one request. */
    record Parsed(OpStats.Reply reply, int consumed) {}

    /**
     * Parses one whole memcached text reply at the start of {@code bytes[0..length)}: for a get {@code VALUE ... END}
     * (HIT) or {@code END} (MISS), for a set {@code STORED}; any other line is classified as {@link TextClient} does.
     * Returns null if the reply is not complete yet.
     */
    static Parsed parse(byte[] bytes, int length, boolean get) {
        int eol = lineEnd(bytes, 0, length);
        if (eol < 0) {
            return null;
        }
        String first = new String(bytes, 0, eol, StandardCharsets.US_ASCII);
        int afterFirst = eol + 2;
        if (get && first.startsWith("VALUE ")) {
            String[] parts = first.split(" ");
            int dataEnd = afterFirst + Integer.parseInt(parts[3]) + 2;
            int endLine = lineEnd(bytes, dataEnd, length);
            if (endLine < 0) {
                return null;
            }
            String end = new String(bytes, dataEnd, endLine - dataEnd, StandardCharsets.US_ASCII);
            return new Parsed(end.equals("END") ? OpStats.Reply.HIT : OpStats.Reply.ERROR, endLine + 2);
        }
        if (get && first.equals("END")) {
            return new Parsed(OpStats.Reply.MISS, afterFirst);
        }
        if (!get && first.equals("STORED")) {
            return new Parsed(OpStats.Reply.STORED, afterFirst);
        }
        return new Parsed(TextClient.classifyError(first), afterFirst);
    }

    /** Index of the CR of the first CRLF at or after {@code from}, or -1. */
    private static int lineEnd(byte[] bytes, int from, int length) {
        for (int i = from; i + 1 < length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The bytes of a request. */
    static byte[] encode(Access access, boolean get) {
        if (get) {
            return ("get " + access.key() + "\r\n").getBytes(StandardCharsets.US_ASCII);
        }
        byte[] header =
                ("set " + access.key() + " 0 0 " + access.valueBytes() + "\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[header.length + access.valueBytes() + 2];
        System.arraycopy(header, 0, out, 0, header.length);
        Arrays.fill(out, header.length, out.length - 2, (byte) 'v');
        out[out.length - 2] = '\r';
        out[out.length - 1] = '\n';
        return out;
    }

    /** One connection with at most one request in flight. */
    private static final class Conn {
        final int endpoint;
        final SocketChannel channel;
        byte[] in = new byte[4096];
        int length;
        /** The request in flight; volatile so the reactor sees what the dispatcher set before its write. */
        volatile Request request;
        /** Whether the reply awaited is the cache-aside set after a missed get. */
        volatile boolean filling;

        volatile long fillStart;

        Conn(int endpoint, SocketChannel channel) {
            this.endpoint = endpoint;
            this.channel = channel;
        }
    }

    /** The state of one {@link #run}. */
    private final class Run {
        final LoadGenerator.Target target;
        final LoadGenerator.Settings settings;
        final long measureFrom;
        final long end;
        final Selector selector;
        final List<Pool<Conn>> pools = new ArrayList<>();
        final Queue<Conn> toRegister = new ConcurrentLinkedQueue<>();
        final List<Conn> all = new ArrayList<>();
        final OpStats[] stats;
        final OpStats[] dispatcherStats;
        final long[] deadlineNanos = new long[3];
        final AtomicLong pendingMeasured = new AtomicLong();
        final AtomicLong opened = new AtomicLong();
        final AtomicLong waited = new AtomicLong();
        /** Per tenant, admitted (not refused) gets with a deadline, and those met counted from the send instead. */
        final long[] admitted;

        final long[] metFromSend;
        /** Send time minus intended time of the window's requests sent by the dispatcher, µs: the generator's lag. */
        final org.HdrHistogram.Histogram lagMicros = new org.HdrHistogram.Histogram(60_000_000L, 2);
        /** Replies over {@link #SLOW_NANOS} per interval of intended start in the window (reactor thread only). */
        final long[] slowByInterval;

        volatile boolean stopped;

        Run(LoadGenerator.Target target, LoadGenerator.Settings settings, int tenants, long measureFrom, long end)
                throws IOException {
            this.target = target;
            this.settings = settings;
            this.measureFrom = measureFrom;
            this.end = end;
            this.selector = Selector.open();
            int endpoints = target.endpoints().size();
            for (int i = 0; i < endpoints; i++) {
                pools.add(new Pool<>((settings.connections() + endpoints - 1) / endpoints));
            }
            slowByInterval = new long[(int) Math.max(1, (end - measureFrom + INTERVAL_NANOS - 1) / INTERVAL_NANOS)];
            admitted = new long[tenants];
            metFromSend = new long[tenants];
            stats = new OpStats[tenants];
            dispatcherStats = new OpStats[tenants];
            Arrays.setAll(stats, i -> new OpStats());
            Arrays.setAll(dispatcherStats, i -> new OpStats());
            for (DeadlineRange range : List.of(DeadlineRange.R1, DeadlineRange.R2, DeadlineRange.R3)) {
                deadlineNanos[range.ordinal()] = (long) (settings.emulation().deadlineMillis(range) * 1e6);
            }
        }

        /** The dispatcher: Poisson arrivals at the total rate until the window ends. */
        void dispatch(KeySource.Cursor cursor, SplittableRandom random, long start) {
            double meanGapNanos = 1e9 / settings.ratePerSecond();
            long rampEnd = start + settings.warmupNanos() / 2;
            long intended = start + gap(random, meanGapNanos, start, start, rampEnd);
            int endpoints = target.endpoints().size();
            Object[] out = new Object[1];
            while (intended < end) {
                long wait;
                while ((wait = intended - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                Access access = cursor.next();
                boolean get = random.nextDouble() < settings.getFraction();
                boolean measured = intended >= measureFrom;
                Request request = new Request(access, get, intended, measured);
                if (measured) {
                    pendingMeasured.incrementAndGet();
                }
                int endpoint = endpoints == 1 ? 0 : LoadGenerator.endpointOf(access.key(), endpoints);
                Pool<Conn> pool = pools.get(endpoint);
                switch (pool.take(request, out)) {
                    case USE_IDLE -> {
                        send((Conn) out[0], request, dispatcherStats);
                        lag(request);
                    }
                    case OPEN_NEW -> {
                        Conn c = connect(endpoint);
                        if (c == null) {
                            pool.lost();
                            failed(request, dispatcherStats);
                        } else {
                            send(c, request, dispatcherStats);
                            lag(request);
                        }
                    }
                    case WAIT -> {
                        if (measured) {
                            waited.incrementAndGet();
                        }
                    }
                    default -> throw new IllegalStateException();
                }
                intended += gap(random, meanGapNanos, intended, start, rampEnd);
            }
        }

        /**
         * The next exponential inter-arrival gap. During the first half of the warm-up the rate ramps from 10 % to
         * 100 %: a cold proxy (interpreted code, connections still opening) hit at once with the full overload rate
         * builds a backlog in its first seconds that it may drain only inside the measured window, which would then
         * measure the start-up, not the steady state.
         */
        private long gap(SplittableRandom random, double meanGapNanos, long now, long start, long rampEnd) {
            double scale = now >= rampEnd ? 1 : 0.1 + 0.9 * (now - start) / (double) (rampEnd - start);
            return (long) (-Math.log(1 - random.nextDouble()) * meanGapNanos / Math.max(0.1, scale));
        }

        private void lag(Request request) {
            if (request.measured) {
                lagMicros.recordValue(
                        Math.max(0, Math.min(60_000_000L, (System.nanoTime() - request.intendedNanos) / 1000)));
            }
        }

        private Conn connect(int endpoint) {
            try {
                SocketChannel channel = SocketChannel.open();
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                channel.connect(target.endpoints().get(endpoint));
                channel.configureBlocking(false);
                Conn c = new Conn(endpoint, channel);
                opened.incrementAndGet();
                toRegister.add(c);
                selector.wakeup();
                return c;
            } catch (IOException e) {
                LockSupport.parkNanos(10_000_000L);
                return null;
            }
        }

        /**
         * Sends a request on a connection this thread owns (taken from the pool or freed by its reply); {@code into}
         * is the calling thread's stats, for a failure.
         */
        private void send(Conn c, Request request, OpStats[] into) {
            c.filling = false;
            c.request = request;
            request.sentNanos = System.nanoTime();
            if (!write(c, encode(request.access, request.get))) {
                broken(c, into);
            }
        }

        private boolean write(Conn c, byte[] bytes) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            try {
                while (buffer.hasRemaining()) {
                    if (c.channel.write(buffer) == 0) {
                        // The socket buffer is full (a large set): rare on loopback, so a short park is enough.
                        LockSupport.parkNanos(20_000L);
                    }
                }
                return true;
            } catch (IOException e) {
                return false;
            }
        }

        /** A request that got no reply because its connection failed: an error, as LoadGenerator records it. */
        private void failed(Request request, OpStats[] into) {
            long now = System.nanoTime();
            if (request.measured) {
                OpStats tenant = into[request.access.tenant()];
                if (request.get) {
                    tenant.recordGet(
                            now - request.intendedNanos,
                            OpStats.Reply.ERROR,
                            request.access.range(),
                            deadlineOf(request.access.range()));
                } else {
                    tenant.recordSet(now - request.intendedNanos, OpStats.Reply.ERROR);
                }
                pendingMeasured.decrementAndGet();
            }
            completed.incrementAndGet();
        }

        private void broken(Conn c, OpStats[] into) {
            Request r = c.request;
            c.request = null;
            try {
                c.channel.close();
            } catch (IOException e) {
                // Closing anyway.
            }
            pools.get(c.endpoint).lost();
            if (r != null) {
                failed(r, into);
            }
        }

        private long deadlineOf(DeadlineRange range) {
            return range == DeadlineRange.BEST_EFFORT ? -1 : deadlineNanos[range.ordinal()];
        }

        /** The reactor: reads replies, records them, hands each freed connection to a waiting request. */
        void react() {
            ByteBuffer scratch = ByteBuffer.allocate(64 * 1024);
            while (!stopped) {
                try {
                    selector.select(100);
                } catch (IOException e) {
                    return;
                }
                Conn pending;
                while ((pending = toRegister.poll()) != null) {
                    try {
                        pending.channel.register(selector, SelectionKey.OP_READ, pending);
                        all.add(pending);
                    } catch (IOException e) {
                        broken(pending, stats);
                    }
                }
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey key = it.next();
                    it.remove();
                    Conn c = (Conn) key.attachment();
                    if (key.isValid() && key.isReadable()) {
                        readable(c, key, scratch);
                    }
                }
            }
        }

        private void readable(Conn c, SelectionKey key, ByteBuffer scratch) {
            int n;
            try {
                scratch.clear();
                n = c.channel.read(scratch);
            } catch (IOException e) {
                n = -1;
            }
            if (n < 0) {
                key.cancel();
                broken(c, stats);
                return;
            }
            if (c.length + n > c.in.length) {
                c.in = Arrays.copyOf(c.in, Math.max(c.in.length * 2, c.length + n));
            }
            System.arraycopy(scratch.array(), 0, c.in, c.length, n);
            c.length += n;
            Request r = c.request;
            if (r == null) {
                c.length = 0; // Bytes nobody asked for: drop them.
                return;
            }
            boolean filling = c.filling;
            Parsed parsed;
            try {
                parsed = parse(c.in, c.length, filling ? false : r.get);
            } catch (RuntimeException e) {
                key.cancel();
                broken(c, stats);
                return;
            }
            if (parsed == null) {
                return;
            }
            c.length = 0;
            long done = System.nanoTime();
            OpStats tenant = stats[r.access.tenant()];
            if (r.measured && !filling && done - r.intendedNanos > SLOW_NANOS) {
                int interval = (int) ((r.intendedNanos - measureFrom) / INTERVAL_NANOS);
                slowByInterval[Math.min(slowByInterval.length - 1, interval)]++;
            }
            if (filling) {
                if (r.measured) {
                    tenant.recordSet(done - c.fillStart, parsed.reply());
                }
            } else if (r.get) {
                if (r.measured) {
                    long deadline = deadlineOf(r.access.range());
                    tenant.recordGet(done - r.intendedNanos, parsed.reply(), r.access.range(), deadline);
                    tenant.recordFromSend(done - r.sentNanos);
                    if (deadline >= 0 && parsed.reply() != OpStats.Reply.REJECTED) {
                        admitted[r.access.tenant()]++;
                        if (parsed.reply() == OpStats.Reply.HIT && done - r.sentNanos <= deadline) {
                            metFromSend[r.access.tenant()]++;
                        }
                    }
                }
                if (parsed.reply() == OpStats.Reply.MISS) {
                    c.filling = true;
                    c.fillStart = System.nanoTime();
                    if (!write(c, encode(r.access, false))) {
                        key.cancel();
                        c.request = null; // Its get is recorded; the fill just did not happen.
                        if (r.measured) {
                            pendingMeasured.decrementAndGet();
                        }
                        broken(c, stats);
                    }
                    return;
                }
            } else if (r.measured) {
                tenant.recordSet(done - r.intendedNanos, parsed.reply());
                tenant.recordFromSend(done - r.sentNanos);
            }
            completed.incrementAndGet();
            c.request = null;
            if (r.measured) {
                pendingMeasured.decrementAndGet();
            }
            Request next = stopped ? null : pools.get(c.endpoint).release(c);
            if (next != null) {
                send(c, next, stats);
            }
        }

        void stop() {
            stopped = true;
            selector.wakeup();
        }

        /** After the reactor stopped: records every counted request still without a reply; closes everything. */
        long recordUnanswered() {
            long count = 0;
            List<Request> left = new ArrayList<>();
            for (Conn c : all) {
                Request r = c.request;
                if (r != null && (!c.filling)) {
                    left.add(r);
                }
            }
            for (Conn c : toRegister) {
                Request r = c.request;
                if (r != null && !c.filling) {
                    left.add(r);
                }
            }
            for (Pool<Conn> pool : pools) {
                left.addAll(pool.drainWaiting());
            }
            for (Request r : left) {
                if (r.measured) {
                    stats[r.access.tenant()].recordUnanswered(r.get, r.access.range());
                    count++;
                }
            }
            for (Conn c : all) {
                closeQuietly(c.channel);
            }
            for (Conn c : toRegister) {
                closeQuietly(c.channel);
            }
            try {
                selector.close();
            } catch (IOException e) {
                // Closing anyway.
            }
            return count;
        }
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }
}
