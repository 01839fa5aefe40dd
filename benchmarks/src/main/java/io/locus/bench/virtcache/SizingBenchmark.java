package io.locus.bench.virtcache;

import io.locus.gluster.virtcache.replay.CloudPhysicsTrace;
import io.locus.gluster.virtcache.replay.TraceRequest;
import io.locus.gluster.virtcache.sizing.CacheSizer;
import io.locus.gluster.virtcache.sizing.HitRateCurve;
import io.locus.gluster.virtcache.sizing.ShadowLru;
import java.io.IOException;
import java.nio.file.Path;
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
 * HCache's cache sizing:
 *
 * <ul>
 *   <li>{@code shadowAccess}: one block access recorded in the segmented shadow LRU ({@link ShadowLru#access}), which
 *       every read of a monitored disk costs;
 *   <li>{@code sizeEpoch}: the end of an epoch, the hit-rate curve taken ({@link ShadowLru#curve}), the target hit rate
 *       of a latency goal ({@link CacheSizer#targetHitRate}) and the smoothed size ({@link CacheSizer#nextSize}).
 * </ul>
 *
 * <p>Workload: the block numbers (64 KiB blocks, the translator's default {@code block-size}) of the CloudPhysics
 * trace under {@code locus.data.dir} (default {@code data}): the first block of every request of the whole trace,
 * offsets folded into a 16 GiB disk, cycled. The shadow LRU has {@code capacityBlocks} in 10 segments, as in HCache:
 * 2,560 blocks (160 MiB, below the trace's 17,545 distinct blocks: most misses evict) or 20,480 (1.25 GiB, it all
 * fits).
 *
 * <p>Run: {@code ./locus bench jmh bench.virtcache}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class SizingBenchmark {
    private static final int BLOCK = 65_536;

    @Param({"2560", "20480"})
    public int capacityBlocks;

    private long[] blocks;
    private ShadowLru shadow;
    private CacheSizer sizer;
    private int next;

    @Setup
    public void setUp() throws IOException {
        Path trace = Path.of(System.getProperty("locus.data.dir", "data")).resolve("cloudphysics/cloudPhysicsIO.csv");
        List<TraceRequest> requests = CloudPhysicsTrace.read(trace, Long.MAX_VALUE, 16L << 30);
        blocks = requests.stream().mapToLong(r -> r.offset() / BLOCK).toArray();
        shadow = new ShadowLru(capacityBlocks, 10);
        for (long b : blocks) {
            shadow.access(b);
        }
        sizer = new CacheSizer(3);
    }

    @Benchmark
    public int shadowAccess() {
        int i = next++;
        if (i >= blocks.length) {
            i = next = 0;
        }
        shadow.access(blocks[i]);
        return i;
    }

    @Benchmark
    public long sizeEpoch() {
        HitRateCurve curve = shadow.curve();
        return sizer.nextSize(curve, CacheSizer.targetHitRate(0.010, 0.004, 0.0005));
    }
}
