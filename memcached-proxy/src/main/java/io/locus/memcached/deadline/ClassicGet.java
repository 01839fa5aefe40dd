package io.locus.memcached.deadline;

import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.protocol.ReplyWriter;
import io.locus.memcached.schedule.RejectReason;
import io.locus.memcached.stats.ProxyStats;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One classic {@code get} on the deadline path while its missing keys are filled: the values found so far, in request
 * order, and the reply once every fill came back (DESIGN.md). Owner thread only.
 */
final class ClassicGet {
    private final byte[][] keys;
    private final MeteredSink sink;
    private final byte[][] values;
    private final int[] flags;
    private final Map<ByteKey, List<Integer>> missing = new LinkedHashMap<>();
    private int pending;
    private final ProxyStats stats;
    private final boolean rejectAsError;
    private String failure;
    private FillResult refusal;

    /**
     * @param keys the keys' bytes, in request order
     * @param rejectAsError {@code classic.reject_mode} says a refused read answers {@code SERVER_ERROR}
     */
    ClassicGet(byte[][] keys, MeteredSink sink, ProxyStats stats, boolean rejectAsError) {
        this.keys = keys;
        this.sink = sink;
        this.stats = stats;
        this.rejectAsError = rejectAsError;
        this.values = new byte[keys.length][];
        this.flags = new int[keys.length];
    }

    /** Key {@code i} was in the cache. */
    void hit(int i, byte[] value, int clientFlags) {
        values[i] = value;
        flags[i] = clientFlags;
    }

    /** Key {@code i} is not in the cache; indexes of the same key share one fill. */
    void miss(int i) {
        missing.computeIfAbsent(new ByteKey(keys[i]), k -> new ArrayList<>()).add(i);
    }

    /** Once every key was looked up: the fills to send, one per distinct missing key with its indexes. */
    List<Map.Entry<ByteKey, List<Integer>>> fillsToSend() {
        pending = missing.size();
        return new ArrayList<>(missing.entrySet());
    }

    /** The fill of the keys at {@code indexes} came back. */
    void arrived(List<Integer> indexes, FillResult r) {
        if (r.hit()) {
            for (int i : indexes) {
                values[i] = r.value();
                flags[i] = r.clientFlags();
            }
        } else if (r.failure() != null && failure == null) {
            failure = r.failure();
        } else if (r.refusal() != null && refusal == null) {
            refusal = r;
        }
        if (--pending == 0) {
            finish();
        }
    }

    /** Every key is there, from the cache or a fill: answer the client. */
    void finish() {
        // A key whose fill failed is not a miss: like memcached when a multi-get fails, the whole get answers
        // the error line, and the client retries it.
        if (failure != null) {
            sink.completeLine(failure);
            return;
        }
        if (refusal != null) {
            sink.markRejected(true);
            if (rejectAsError
                    && refusal.refusal() != RejectReason.DEADLINE_EXCEEDED
                    && refusal.refusal() != RejectReason.TENANT_QUOTA) {
                sink.completeLine("SERVER_ERROR " + refusal.refusal().serverErrorText(refusal.estimateMicros()));
                return;
            }
        }
        int hits = 0;
        for (byte[] v : values) {
            if (v != null) {
                hits++;
            }
        }
        stats.add(ProxyStats.Counter.GET_HITS, hits);
        stats.add(ProxyStats.Counter.GET_MISSES, keys.length - hits);
        sink.complete(ReplyWriter.values(PooledByteBufAllocator.DEFAULT, keys, values, flags));
    }
}
