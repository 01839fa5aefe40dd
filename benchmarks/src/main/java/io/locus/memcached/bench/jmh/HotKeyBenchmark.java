package io.locus.memcached.bench.jmh;

import io.locus.memcached.balance.BalanceConfig;
import io.locus.memcached.balance.HotKeyTracker;
import io.locus.memcached.bench.Access;
import io.locus.memcached.cache.ByteKey;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SplittableRandom;
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
 * MBal's hot-key tracking on every request the balancing proxy forwards: {@link HotKeyTracker#recordRead} /
 * {@link HotKeyTracker#recordWrite} (a sampling draw, then for a sampled request the Space-Saving update of a table of
 * {@code lb.hot_keys} = 1,024 counters), with the epoch's decay every 100,000 requests.
 *
 * <p>Workload: the {@link ProxyWorkload} stream (Zipf 0.99 over 150,000 keys, as the proxy's {@link ByteKey}s),
 * 95% reads and 5% writes as in {@code ./locus bench proxy}. {@code sampleRate}: {@code 0.05} is {@code
 * lb.sample_rate}'s default, {@code 1} what the balancer raises it to while it hunts a hot spot.
 *
 * <p>Run: {@code ./locus bench jmh HotKeyBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class HotKeyBenchmark {
    private static final int EPOCH_REQUESTS = 100_000;

    @Param({"0.05", "1"})
    public String sampleRate;

    private HotKeyTracker<ByteKey> tracker;
    private ByteKey[] keys;
    private boolean[] writes;
    private int next;
    private int sinceEpoch;

    @Setup
    public void setUp() {
        tracker = new HotKeyTracker<>(
                BalanceConfig.defaults().withOverrides(Map.of("lb.sample_rate", sampleRate)), new SplittableRandom(1));
        Access[] accesses = ProxyWorkload.accesses();
        keys = new ByteKey[accesses.length];
        writes = new boolean[accesses.length];
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < accesses.length; i++) {
            keys[i] = new ByteKey(accesses[i].key().getBytes(StandardCharsets.ISO_8859_1));
            writes[i] = r.nextDouble() < 0.05;
        }
        for (int i = 0; i < 2 * EPOCH_REQUESTS; i++) {
            record();
        }
    }

    @Benchmark
    public int record() {
        int i = next++ & ProxyWorkload.MASK;
        if (writes[i]) {
            tracker.recordWrite(keys[i]);
        } else {
            tracker.recordRead(keys[i]);
        }
        if (++sinceEpoch == EPOCH_REQUESTS) {
            sinceEpoch = 0;
            return tracker.endEpoch(1.0).size();
        }
        return i;
    }
}
