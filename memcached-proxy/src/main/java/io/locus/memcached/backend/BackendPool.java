package io.locus.memcached.backend;

import io.locus.memcached.config.BackendAddress;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.protocol.MetaFlags;
import io.locus.memcached.stats.ProxyStats;
import io.netty.channel.EventLoop;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The backends of the pool as seen from one I/O thread, and the ring that places keys on them. Confined to its event
 * loop.
 */
public final class BackendPool {
    private final PoolRing ring;
    private final EventLoop loop;
    private final List<Backend> backends = new ArrayList<>();

    public BackendPool(ProxyConfig config, PoolRing ring, EventLoop loop, ProxyStats stats) {
        this.ring = ring;
        this.loop = loop;
        for (BackendAddress a : config.servers()) {
            backends.add(new Backend(
                    a.host(),
                    a.port(),
                    ring,
                    backends.size(),
                    loop,
                    config.backend().conns(),
                    config.limits().protocol(),
                    stats,
                    config.backend().timeoutMicros(),
                    config.backend().connectTimeoutMicros(),
                    config.backend().retryIntervalMicros()));
        }
    }

    /** Builds the ring for a configuration (nutcracker's placement and ejection). */
    public static PoolRing ringFor(ProxyConfig config) {
        List<KetamaRing.Server> servers = new ArrayList<>();
        for (BackendAddress a : config.servers()) {
            servers.add(new KetamaRing.Server(a.host(), a.port(), a.weight(), a.name()));
        }
        return new PoolRing(new KetamaRing(servers), config.backend().ejection());
    }

    /** The I/O thread that owns these backends' connections. */
    EventLoop loop() {
        return loop;
    }

    public int size() {
        return backends.size();
    }

    public Backend backend(int index) {
        return backends.get(index);
    }

    /** The index of the backend owning {@code key}. */
    int indexFor(byte[] key) {
        return ring.serverFor(key);
    }

    /** The index for a meta key, decoding it first when the request carries the base64 flag {@code b}. */
    int indexForMeta(byte[] key, MetaFlags flags) {
        if (flags.has('b')) {
            try {
                return ring.serverFor(Base64.getDecoder().decode(key));
            } catch (IllegalArgumentException e) {
                return ring.serverFor(key); // memcached rejects it; any backend gives the same error
            }
        }
        return ring.serverFor(key);
    }

    List<Backend> backends() {
        return backends;
    }

    public void close() {
        for (Backend b : backends) {
            b.close();
        }
    }
}
