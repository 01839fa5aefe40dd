package io.locus.memcached.backend;

import io.locus.memcached.config.BackendSection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pool's ketama ring with nutcracker's ejection of failing servers ({@code auto_eject_hosts}): the one place that
 * says which server owns a key. Indices are always those of the configured server list, ejected or not.
 *
 * <p>A server that fails {@code server_failure_limit} times in a row (a timeout, a refused or lost connection) leaves
 * the ring for {@code server_retry_timeout}; the ring is rebuilt from the servers still live, with their points
 * computed as if they were the whole pool, so each of the ejected server's keys goes where nutcracker sends it. Once the
 * timeout has passed, the next lookup rebuilds the ring with the server back in; if it fails again it counts anew.
 * A reply from a server resets its count. With every server ejected a key goes to its home on the full ring, so its
 * request fails as nutcracker's does and a server that answers is counted back to health.
 *
 * <p>Thread-safe: I/O threads share one ring, as nutcracker's one thread shares its pool, so failures seen on any
 * thread count toward the same limit.
 */
public final class PoolRing {
    private static final Logger LOG = LoggerFactory.getLogger(PoolRing.class);

    /** The ring of the servers live at one time, and when an ejected server is due back (0 = none is ejected). */
    private record Live(KetamaRing ring, int[] toPool, long nextRebuildNanos) {}

    private final KetamaRing full;
    private final BackendSection.Ejection ejection;
    private final LongSupplier nanoClock;
    private final AtomicIntegerArray failures;
    private final long[] retryAtNanos; // guarded by this; 0 = in the ring
    private final LongAdder ejects = new LongAdder();
    private volatile Live live;

    public PoolRing(KetamaRing full, BackendSection.Ejection ejection) {
        this(full, ejection, System::nanoTime);
    }

    PoolRing(KetamaRing full, BackendSection.Ejection ejection, LongSupplier nanoClock) {
        this.full = full;
        this.ejection = ejection;
        this.nanoClock = nanoClock;
        this.failures = new AtomicIntegerArray(full.servers().size());
        this.retryAtNanos = new long[full.servers().size()];
        this.live = new Live(full, null, 0);
    }

    /** Every configured server, in configuration order. */
    public List<KetamaRing.Server> servers() {
        return full.servers();
    }

    /** The ring of every configured server, as if none were ever ejected. */
    public KetamaRing full() {
        return full;
    }

    /** The index (into {@link #servers()}) of the live server that owns {@code key}. */
    public int serverFor(byte[] key) {
        Live l = live;
        if (l.nextRebuildNanos != 0 && nanoClock.getAsLong() - l.nextRebuildNanos >= 0) {
            l = rebuild();
        }
        int i = l.ring.serverFor(key);
        return l.toPool == null ? i : l.toPool[i];
    }

    /** {@link #serverFor(byte[])} for a key held as an ISO-8859-1 string (one char per byte). */
    public int serverFor(String key) {
        return serverFor(key.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /**
     * Server {@code index} failed: a request timed out, a connect was refused or timed out, or the connection was
     * lost. Counts toward its ejection when {@code backend.auto_eject_hosts} is on.
     */
    public void failure(int index) {
        if (!ejection.autoEjectHosts()) {
            return;
        }
        if (failures.incrementAndGet(index) < ejection.serverFailureLimit()) {
            return;
        }
        synchronized (this) {
            if (failures.get(index) < ejection.serverFailureLimit() || retryAtNanos[index] != 0) {
                return; // another thread ejected it a moment ago
            }
            failures.set(index, 0);
            retryAtNanos[index] = nanoClock.getAsLong() + ejection.serverRetryTimeoutMicros() * 1000;
            ejects.increment();
            LOG.warn(
                    "backend {} ejected from the ring for {} ms after {} consecutive failures",
                    servers().get(index).host() + ":" + servers().get(index).port(),
                    ejection.serverRetryTimeoutMicros() / 1000,
                    ejection.serverFailureLimit());
            live = build();
        }
    }

    /** Server {@code index} answered a request: its failures no longer count. Cheap when there were none. */
    public void ok(int index) {
        if (failures.get(index) != 0) {
            failures.set(index, 0);
        }
    }

    /** Servers ejected since start-up (nutcracker's {@code server_ejects}). */
    public long ejects() {
        return ejects.sum();
    }

    /** The {@code stats} lines: {@code server_ejects} (nutcracker's name) and the servers out of the ring now. */
    public java.util.Map<String, String> statsLines() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        m.put("server_ejects", Long.toString(ejects()));
        int out = 0;
        for (int i = 0; i < retryAtNanos.length; i++) {
            out += isEjected(i) ? 1 : 0;
        }
        m.put("locus_servers_ejected", Integer.toString(out));
        return m;
    }

    /** Whether server {@code index} is out of the ring now. */
    public synchronized boolean isEjected(int index) {
        return retryAtNanos[index] != 0 && nanoClock.getAsLong() - retryAtNanos[index] < 0;
    }

    /** Servers in the ring now. */
    public int liveServers() {
        Live l = live;
        return l.toPool == null ? full.servers().size() : l.toPool.length;
    }

    private synchronized Live rebuild() {
        Live l = live;
        if (l.nextRebuildNanos != 0 && nanoClock.getAsLong() - l.nextRebuildNanos >= 0) {
            live = build();
            LOG.info(
                    "ring rebuilt: {} of {} backends live",
                    liveServers(),
                    full.servers().size());
        }
        return live;
    }

    /** The ring of the servers whose retry time has not come yet left out; caller holds the lock. */
    private Live build() {
        long now = nanoClock.getAsLong();
        List<KetamaRing.Server> in = new ArrayList<>();
        List<Integer> toPool = new ArrayList<>();
        long next = 0;
        for (int i = 0; i < retryAtNanos.length; i++) {
            if (retryAtNanos[i] != 0 && now - retryAtNanos[i] >= 0) {
                retryAtNanos[i] = 0; // its time is up: back in, and tried again
            }
            if (retryAtNanos[i] == 0) {
                in.add(full.servers().get(i));
                toPool.add(i);
            } else if (next == 0 || retryAtNanos[i] - next < 0) {
                next = retryAtNanos[i];
            }
        }
        if (in.size() == full.servers().size()) {
            return new Live(full, null, 0);
        }
        if (in.isEmpty()) {
            return new Live(full, null, next);
        }
        return new Live(
                new KetamaRing(in), toPool.stream().mapToInt(Integer::intValue).toArray(), next);
    }
}
