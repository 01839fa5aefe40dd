package io.locus.bench.cassandra;

import io.locus.cassandra.drop.PathEncoder;
import java.nio.ByteBuffer;
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
 * DROP's key encoding alone, {@link PathEncoder#encode(ByteBuffer)}: the per-level name hashes and the token layout,
 * without the token object {@code getToken} wraps around it ({@link TokenBenchmark} measures that).
 *
 * <p>Workload: {@link TokenBenchmark}'s key sets ({@code SHORT}, {@code TYPICAL} real dpkg paths, {@code DEEP},
 * {@code NON_PATH}); {@code buffer}: {@code HEAP} keys are read in place, {@code DIRECT} (off-heap, as Cassandra's
 * native transport may hand them over) are copied into a per-thread scratch array first.
 *
 * <p>Run: {@code ./locus bench jmh PathEncoderBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class PathEncoderBenchmark {
    /** Where the key bytes live. */
    public enum Buffer {
        HEAP,
        DIRECT
    }

    private static final int MASK = 4096 - 1;

    @Param({"SHORT", "TYPICAL", "DEEP", "NON_PATH"})
    public TokenBenchmark.Keys keys;

    @Param({"HEAP", "DIRECT"})
    public Buffer buffer;

    private ByteBuffer[] buffers;
    private int next;

    @Setup
    public void setUp() {
        buffers = TokenBenchmark.buffers(keys);
        if (buffer == Buffer.DIRECT) {
            for (int i = 0; i < buffers.length; i++) {
                ByteBuffer d = ByteBuffer.allocateDirect(buffers[i].remaining());
                d.put(buffers[i].duplicate()).flip();
                buffers[i] = d;
            }
        }
    }

    @Benchmark
    public byte[] encode() {
        return PathEncoder.encode(buffers[next++ & MASK]);
    }
}
