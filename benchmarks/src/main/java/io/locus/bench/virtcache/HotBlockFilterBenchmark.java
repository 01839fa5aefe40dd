package io.locus.bench.virtcache;

import io.locus.gluster.virtcache.hotblock.HotBlockFilter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;
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
 * The client's question on every read of a disk while it is WARMING or REDIRECTED: is this block hot?
 * ({@link HotBlockFilter#mightContain}: MurmurHash3 x64/128 of the block, then up to k bit probes.)
 *
 * <p>Workload: a filter as the translator serves it (one 64-byte chunk header and a 60 KiB bit array: m = 491,520
 * bits, k = 7, about 51,000 hot blocks at a 1% false-positive rate), parsed by {@link HotBlockFilter#parse}. Its bits
 * are drawn at random with {@code fill}: {@code 0.5} is an optimally loaded filter (a cold block stops after about two
 * probes), {@code 1} every bit set (every block answers hot after all k probes, the cost of a hot read). Blocks
 * queried: 4,096 random block numbers (64 KiB blocks) of a 16 GiB disk, cycled.
 *
 * <p>Run: {@code ./locus bench jmh bench.virtcache}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class HotBlockFilterBenchmark {
    private static final int BODY_BYTES = 61_440;
    private static final int QUERIES = 4096;

    @Param({"0.5", "1"})
    public double fill;

    private HotBlockFilter filter;
    private long[] queries;
    private int next;

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        long[] words = new long[BODY_BYTES / 8];
        for (int w = 0; w < words.length; w++) {
            for (int b = 0; b < 64; b++) {
                if (random.nextDouble() < fill) {
                    words[w] |= 1L << b;
                }
            }
        }
        ByteBuffer body = ByteBuffer.allocate(BODY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        body.asLongBuffer().put(words);
        CRC32C crc = new CRC32C();
        crc.update(body.array());
        ByteBuffer chunk = ByteBuffer.allocate(64 + BODY_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        chunk.put("VCBF".getBytes(StandardCharsets.US_ASCII))
                .putShort((short) 1)
                .putShort((short) 7)
                .putLong(BODY_BYTES * 8L)
                .putLong(51_000)
                .putInt(65_536)
                .putInt(0)
                .putLong(1)
                .putLong(0)
                .putInt(600_000)
                .putInt(1)
                .putInt((int) crc.getValue())
                .putInt(BODY_BYTES)
                .put(body.array());
        filter = HotBlockFilter.parse(chunk.array());
        queries = new long[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
            queries[i] = random.nextLong((16L << 30) / 65_536);
        }
    }

    @Benchmark
    public boolean mightContain() {
        return filter.mightContain(queries[next++ & (QUERIES - 1)]);
    }
}
