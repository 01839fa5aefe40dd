package io.locus.memcached.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The load generator: {@code connections} client threads, each with one blocking text-protocol connection per
 * endpoint and one request in flight. Closed loop by default (next request when the reply is in); with a target
 * rate, each thread draws Poisson arrivals at {@code rate / connections} and measures latency from the intended
 * arrival, so a slow reply is charged to every request queued behind it (no coordinated omission).
 *
 * <p>A request is a {@code get} with probability {@code getFraction}, else a {@code set} of the key's ETC-sized
 * value. A get that misses is followed by a {@code set} of the value (cache-aside), counted as a set. With several
 * endpoints (direct memcached) a key goes to endpoint {@code hash(key) mod n}; the harness preloads every key on
 * every server, so this placement finds the same data as ketama does.
 */
public final class LoadGenerator implements Generator {
    /**
     * Where requests go.
     *
     * @param label the row name
     * @param endpoints one address (a proxy) or one per backend (direct)
     */
    public record Target(String label, List<InetSocketAddress> endpoints) {
        /** Checks that there is an endpoint. */
        public Target {
            if (endpoints.isEmpty()) {
                throw new IllegalArgumentException("target " + label + ": no endpoints (expected: at least one)");
            }
            endpoints = List.copyOf(endpoints);
        }
    }

    /**
     * How to load.
     *
     * @param connections client connections (threads), >= 1
     * @param ratePerSecond total target rate in requests per second; 0 = closed loop
     * @param getFraction fraction of requests that are gets, 0..1
     * @param seed seed of every random choice
     * @param warmupNanos unmeasured time first
     * @param measureNanos measured time
     * @param emulation gives each range its deadline
     */
    public record Settings(
            int connections,
            double ratePerSecond,
            double getFraction,
            long seed,
            long warmupNanos,
            long measureNanos,
            Emulation emulation) {
        /** Checks the ranges. */
        public Settings {
            if (connections < 1 || connections > 4096) {
                throw new IllegalArgumentException("connections " + connections + " (expected: 1..4096)");
            }
            if (ratePerSecond < 0) {
                throw new IllegalArgumentException("rate " + ratePerSecond + " (expected: >= 0, 0 = closed loop)");
            }
            if (getFraction < 0 || getFraction > 1) {
                throw new IllegalArgumentException("get fraction " + getFraction + " (expected: 0..1)");
            }
            if (measureNanos <= 0 || warmupNanos < 0) {
                throw new IllegalArgumentException("warm-up " + warmupNanos + " ns, measure " + measureNanos
                        + " ns (expected: warm-up >= 0, measure > 0)");
            }
        }
    }

    /**
     * One row's outcome.
     *
     * @param perTenant merged stats per tenant, in {@link KeySource#tenants()} order
     * @param measuredSeconds length of the measured window
     */
    public record Result(List<OpStats> perTenant, double measuredSeconds) {
        /** All tenants together. */
        public OpStats total() {
            OpStats all = new OpStats();
            perTenant.forEach(all::add);
            return all;
        }

        /** Requests per second in the measured window. */
        public double throughput() {
            return total().ops() / measuredSeconds;
        }
    }

    private final AtomicLong completed = new AtomicLong();

    /** Requests completed so far in this generator's runs (warm-up included), for progress lines. */
    public long completed() {
        return completed.get();
    }

    /**
     * Runs one load phase and returns the measured window's stats.
     *
     * @throws InterruptedException if interrupted while waiting for the client threads
     */
    public Result run(Target target, KeySource keys, Settings settings) throws InterruptedException {
        int tenants = keys.tenants().size();
        long start = System.nanoTime() + 50_000_000L;
        long measureFrom = start + settings.warmupNanos();
        long end = measureFrom + settings.measureNanos();
        List<OpStats[]> perThread = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < settings.connections(); c++) {
            OpStats[] stats = new OpStats[tenants];
            Arrays.setAll(stats, i -> new OpStats());
            perThread.add(stats);
            Worker worker = new Worker(
                    target,
                    keys.cursor(c, settings.connections(), settings.seed()),
                    settings,
                    new SplittableRandom(KeyHash.mix(settings.seed() ^ (0x5DEECE66DL * (c + 1)))),
                    stats,
                    start,
                    measureFrom,
                    end);
            Thread thread = new Thread(worker, "load-" + target.label() + "-" + c);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        List<OpStats> merged = new ArrayList<>();
        for (int t = 0; t < tenants; t++) {
            OpStats sum = new OpStats();
            for (OpStats[] stats : perThread) {
                sum.add(stats[t]);
            }
            merged.add(sum);
        }
        return new Result(merged, settings.measureNanos() / 1e9);
    }

    /** The endpoint index of a key among {@code n}: a stable 64-bit FNV-1a of the key, mod n. */
    static int endpointOf(String key, int n) {
        long hash = 0xCBF29CE484222325L;
        for (int i = 0; i < key.length(); i++) {
            hash ^= key.charAt(i);
            hash *= 0x100000001B3L;
        }
        return (int) Long.remainderUnsigned(hash, n);
    }

    /** A deterministic value of the given size (content does not matter to any cache). */
    static byte[] valueOf(int bytes) {
        byte[] value = new byte[bytes];
        Arrays.fill(value, (byte) 'v');
        return value;
    }

    private final class Worker implements Runnable {
        private final Target target;
        private final KeySource.Cursor cursor;
        private final Settings settings;
        private final SplittableRandom random;
        private final OpStats[] stats;
        private final long start;
        private final long measureFrom;
        private final long end;
        private final TextClient[] clients;
        private final long[] deadlineNanos = new long[3];

        Worker(
                Target target,
                KeySource.Cursor cursor,
                Settings settings,
                SplittableRandom random,
                OpStats[] stats,
                long start,
                long measureFrom,
                long end) {
            this.target = target;
            this.cursor = cursor;
            this.settings = settings;
            this.random = random;
            this.stats = stats;
            this.start = start;
            this.measureFrom = measureFrom;
            this.end = end;
            this.clients = new TextClient[target.endpoints().size()];
            for (DeadlineRange range : List.of(DeadlineRange.R1, DeadlineRange.R2, DeadlineRange.R3)) {
                deadlineNanos[range.ordinal()] = (long) (settings.emulation().deadlineMillis(range) * 1e6);
            }
        }

        @Override
        public void run() {
            double meanGapNanos =
                    settings.ratePerSecond() > 0 ? 1e9 * settings.connections() / settings.ratePerSecond() : 0;
            long intended = start + (long) (random.nextDouble() * meanGapNanos);
            parkUntil(start);
            while (true) {
                long now = System.nanoTime();
                if (meanGapNanos > 0) {
                    if (intended >= end) {
                        break;
                    }
                    parkUntil(intended);
                } else {
                    if (now >= end) {
                        break;
                    }
                    intended = now;
                }
                Access access = cursor.next();
                boolean get = random.nextDouble() < settings.getFraction();
                OpStats tenant = stats[access.tenant()];
                int endpoint = clients.length == 1 ? 0 : endpointOf(access.key(), clients.length);
                if (get) {
                    OpStats.Reply reply = call(endpoint, access, true);
                    long done = System.nanoTime();
                    boolean measured = intended >= measureFrom && done <= end;
                    if (measured) {
                        long deadline = access.range() == DeadlineRange.BEST_EFFORT
                                ? -1
                                : deadlineNanos[access.range().ordinal()];
                        tenant.recordGet(done - intended, reply, access.range(), deadline);
                    }
                    if (reply == OpStats.Reply.MISS) {
                        long fillStart = System.nanoTime();
                        OpStats.Reply stored = call(endpoint, access, false);
                        long fillDone = System.nanoTime();
                        if (measured && fillDone <= end) {
                            tenant.recordSet(fillDone - fillStart, stored);
                        }
                    }
                } else {
                    OpStats.Reply reply = call(endpoint, access, false);
                    long done = System.nanoTime();
                    if (intended >= measureFrom && done <= end) {
                        tenant.recordSet(done - intended, reply);
                    }
                }
                completed.incrementAndGet();
                if (meanGapNanos > 0) {
                    intended += (long) (-Math.log(1 - random.nextDouble()) * meanGapNanos);
                }
            }
            for (TextClient client : clients) {
                if (client != null) {
                    client.close();
                }
            }
        }

        private OpStats.Reply call(int endpoint, Access access, boolean get) {
            try {
                if (clients[endpoint] == null) {
                    clients[endpoint] = new TextClient(target.endpoints().get(endpoint), 10_000);
                }
                return get
                        ? clients[endpoint].get(access.key())
                        : clients[endpoint].set(access.key(), valueOf(access.valueBytes()));
            } catch (IOException | RuntimeException e) {
                if (clients[endpoint] != null) {
                    clients[endpoint].close();
                    clients[endpoint] = null;
                }
                LockSupport.parkNanos(10_000_000L);
                return OpStats.Reply.ERROR;
            }
        }

        private void parkUntil(long deadline) {
            long wait;
            while ((wait = deadline - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
        }
    }
}
