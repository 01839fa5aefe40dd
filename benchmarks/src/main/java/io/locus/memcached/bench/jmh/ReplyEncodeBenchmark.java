package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.deadline.MetaGetFlags;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.protocol.ReplyWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The proxy's reply encoding: {@link ReplyWriter}, which writes the replies the deadline path answers from its local
 * cache (a pass-through reply is the backend's bytes, relayed unchanged). Per reply, into a pooled buffer that is
 * released as the socket write would.
 *
 * <p>Workload: keys and ETC value sizes of {@link ProxyWorkload}. {@code kind}: {@code GET} a classic get hit (one
 * {@code VALUE} item and {@code END}); {@code MULTI_GET} a get of 10 keys of which 8 hit; {@code META_GET} an
 * {@code mg <key> v f} hit ({@code VA <n> f0} and the value, written by {@link MetaGetFlags#hit} from flags parsed
 * beforehand, as the proxy parses them once per request).
 *
 * <p>Run: {@code ./locus bench jmh ReplyEncodeBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class ReplyEncodeBenchmark {
    private static final int MULTI = 10;

    /** Reply shapes. */
    public enum Kind {
        GET,
        MULTI_GET,
        META_GET
    }

    @Param({"GET", "MULTI_GET", "META_GET"})
    public Kind kind;

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private byte[][][] keys;
    private byte[][][] values;
    private int[][] flags;
    /** The flags of {@code mg k v f}, read in that request's line, which lives as long as the benchmark. */
    private static final MetaGetFlags VALUE_AND_FLAGS = MetaGetFlags.parse(
            MemcachedRequest.withKey(UnpooledByteBufAllocator.DEFAULT, Command.MG, new byte[] {'k'}, List.of("v", "f"))
                    .metaFlags());

    private int next;

    @Setup
    public void setUp() {
        Access[] accesses = ProxyWorkload.accesses();
        int n = ProxyWorkload.SIZE;
        keys = new byte[n][][];
        values = new byte[n][][];
        flags = new int[n][];
        for (int i = 0; i < n; i++) {
            int count = kind == Kind.MULTI_GET ? MULTI : 1;
            keys[i] = new byte[count][];
            values[i] = new byte[count][];
            flags[i] = new int[count];
            for (int j = 0; j < count; j++) {
                Access a = accesses[(i + j) & ProxyWorkload.MASK];
                keys[i][j] = a.key().getBytes(StandardCharsets.ISO_8859_1);
                boolean hit = kind != Kind.MULTI_GET || j % 5 != 4; // 8 of 10 hit
                values[i][j] = hit ? ProxyWorkload.value(a.valueBytes()) : null;
            }
        }
    }

    @Benchmark
    public void encode(Blackhole bh) {
        int i = next++ & ProxyWorkload.MASK;
        ByteBuf reply = kind == Kind.META_GET
                ? VALUE_AND_FLAGS.hit(alloc, keys[i][0], flags[i][0], values[i][0])
                : ReplyWriter.values(alloc, keys[i], values[i], flags[i]);
        bh.consume(reply.readableBytes());
        reply.release();
    }
}
