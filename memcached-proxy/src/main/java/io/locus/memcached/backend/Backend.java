package io.locus.memcached.backend;

import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.stats.ProxyStats;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.List;

/**
 * One memcached backend as seen from one I/O thread: its connections and whether it is down.
 *
 * <p>After a failed connect the backend is down for the retry interval: calls fail at once with
 * {@code SERVER_ERROR backend unavailable} instead of waiting on a dead host. The first call after the interval tries
 * again, so the proxy recovers by itself when the backend returns. Failures and replies are also told to the pool's
 * {@link PoolRing}, which ejects a failing backend from the ring when {@code backend.auto_eject_hosts} is on.
 * Confined to its event loop.
 */
public final class Backend implements BackendConnection.Health {
    private final String host;
    private final int port;
    private final long retryNanos;
    private final List<BackendConnection> conns = new ArrayList<>();
    private final PoolRing ring;
    private final int index;
    private long downUntilNanos;
    private long downSinceNanos;
    private boolean down;

    Backend(
            String host,
            int port,
            PoolRing ring,
            int index,
            EventLoop loop,
            int connections,
            ProtocolLimits limits,
            ProxyStats stats,
            long timeoutMicros,
            long connectTimeoutMicros,
            long retryMicros) {
        this.host = host;
        this.port = port;
        this.retryNanos = retryMicros * 1000;
        this.ring = ring;
        this.index = index;
        for (int i = 0; i < connections; i++) {
            conns.add(new BackendConnection(host, port, this, loop, limits, stats, timeoutMicros, (int)
                    Math.max(1, connectTimeoutMicros / 1000)));
        }
    }

    String host() {
        return host;
    }

    int port() {
        return port;
    }

    /**
     * Sends a call on the connection that serves client connection {@code affinity}, or fails it at once while the
     * backend is down. One client's requests to this backend thus stay in order (memcached orders per connection).
     */
    public void send(BackendCall call, long affinity) {
        if (down && System.nanoTime() - downUntilNanos < 0) {
            call.fail(BackendConnection.UNAVAILABLE);
            return;
        }
        conns.get((int) Math.floorMod(affinity, (long) conns.size())).send(call);
    }

    @Override
    public void markDown() {
        down = true;
        downSinceNanos = System.nanoTime();
        downUntilNanos = downSinceNanos + retryNanos;
    }

    /**
     * Stops failing fast if this thread's last failure of the backend came before {@code nanos}, the instant another
     * thread saw it answer again. Why: a client thread's fail-fast window (backend.retry_interval) can outlast a
     * restart and warm-up done by the replication thread; without this, a read in that window was taken for a new
     * failure, which marked the just-warmed backend down and had it flushed again, losing the keys whose other copy
     * was gone by then.
     */
    public void forgetFailuresBefore(long nanos) {
        if (down && downSinceNanos - nanos < 0) {
            down = false;
        }
    }

    @Override
    public void markUp() {
        down = false;
    }

    @Override
    public void failed() {
        if (ring != null) {
            ring.failure(index);
        }
    }

    @Override
    public void replied() {
        if (ring != null) {
            ring.ok(index);
        }
    }

    /** "up", "down" (failing fast) or "retrying" (the interval has passed; the next call connects). */
    public String state() {
        if (!down) {
            return "up";
        }
        return System.nanoTime() - downUntilNanos < 0 ? "down" : "retrying";
    }

    public int outstanding() {
        int n = 0;
        for (BackendConnection c : conns) {
            n += c.outstanding();
        }
        return n;
    }

    void close() {
        for (BackendConnection c : conns) {
            c.close();
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
