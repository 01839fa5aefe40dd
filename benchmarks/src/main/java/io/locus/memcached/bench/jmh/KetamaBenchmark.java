package io.locus.memcached.bench.jmh;

import io.locus.memcached.backend.KetamaRing;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The ketama lookup that places every keyed request: {@link KetamaRing#serverFor} (nutcracker's fnv1a_64 of the key,
 * then a binary search over 160 points per server).
 *
 * <p>Workload: the keys of {@link ProxyWorkload} in stream order, as the wire's ISO-8859-1 string (what the proxy
 * passes today) and as bytes; rings of {@code servers} memcached servers on one host.
 *
 * <p>Run: {@code ./locus bench jmh KetamaBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class KetamaBenchmark {
    @Param({"2", "16"})
    public int servers;

    private KetamaRing ring;
    private String[] keys;
    private byte[][] keyBytes;
    private int next;

    @Setup
    public void setUp() {
        List<KetamaRing.Server> list = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            list.add(new KetamaRing.Server("127.0.0.1", 11211 + i, 1, null));
        }
        ring = new KetamaRing(list);
        keys = new String[ProxyWorkload.SIZE];
        keyBytes = new byte[ProxyWorkload.SIZE][];
        var accesses = ProxyWorkload.accesses();
        for (int i = 0; i < keys.length; i++) {
            keys[i] = accesses[i].key();
            keyBytes[i] = keys[i].getBytes(StandardCharsets.ISO_8859_1);
        }
    }

    @Benchmark
    public int serverForString() {
        return ring.serverFor(keys[next++ & ProxyWorkload.MASK]);
    }

    @Benchmark
    public int serverForBytes() {
        return ring.serverFor(keyBytes[next++ & ProxyWorkload.MASK]);
    }
}
