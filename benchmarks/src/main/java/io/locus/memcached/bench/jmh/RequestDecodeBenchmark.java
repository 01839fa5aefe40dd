package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.protocol.MemcachedRequestDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The proxy's request decoding: {@link MemcachedRequestDecoder} (a Netty {@code ByteToMessageDecoder}, in an
 * {@code EmbeddedChannel} as in its unit tests) turning a client's pipelined bytes into requests.
 *
 * <p>Workload: one read of {@value #BATCH} pipelined requests of the {@code ./locus bench proxy} workload
 * ({@link ProxyWorkload}) in a pooled direct buffer, as the proxy's event loop reads them; every request is released
 * after the Blackhole consumed it. Scores are per request. {@code kind}: {@code GET} a classic single-key get,
 * {@code MULTI_GET} a get of 10 keys, {@code SET} a set with its ETC-sized data block, {@code META_GET}
 * {@code mg <key> v f t}.
 *
 * <p>Run: {@code ./locus bench jmh RequestDecodeBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@OperationsPerInvocation(RequestDecodeBenchmark.BATCH)
public class RequestDecodeBenchmark {
    static final int BATCH = 64;

    /** Request shapes. */
    public enum Kind {
        GET,
        MULTI_GET,
        SET,
        META_GET
    }

    @Param({"GET", "MULTI_GET", "SET", "META_GET"})
    public Kind kind;

    private EmbeddedChannel channel;
    private ByteBuf[] reads;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        channel = new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS));
        Access[] accesses = ProxyWorkload.accesses();
        // Several different reads, so the branch predictor cannot learn one buffer's key lengths by heart.
        reads = new ByteBuf[16];
        int a = 0;
        for (int r = 0; r < reads.length; r++) {
            StringBuilder wire = new StringBuilder();
            for (int i = 0; i < BATCH; i++) {
                Access x = accesses[a++ & ProxyWorkload.MASK];
                switch (kind) {
                    case GET -> wire.append("get ").append(x.key()).append("\r\n");
                    case MULTI_GET -> {
                        wire.append("get ").append(x.key());
                        for (int k = 1; k < 10; k++) {
                            wire.append(' ').append(accesses[a++ & ProxyWorkload.MASK].key());
                        }
                        wire.append("\r\n");
                    }
                    case SET ->
                        wire.append("set ")
                                .append(x.key())
                                .append(" 0 0 ")
                                .append(x.valueBytes())
                                .append("\r\n")
                                .append(new String(ProxyWorkload.value(x.valueBytes()), StandardCharsets.ISO_8859_1))
                                .append("\r\n");
                    case META_GET -> wire.append("mg ").append(x.key()).append(" v f t\r\n");
                    default -> throw new IllegalStateException("no request for " + kind);
                }
            }
            byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
            reads[r] = PooledByteBufAllocator.DEFAULT.directBuffer(bytes.length).writeBytes(bytes);
        }
    }

    @Benchmark
    public void decode(Blackhole bh) {
        ByteBuf read = reads[next++ & (reads.length - 1)];
        channel.writeInbound(read.retainedDuplicate());
        int n = 0;
        for (Object m = channel.readInbound(); m != null; m = channel.readInbound()) {
            bh.consume(m);
            ReferenceCountUtil.release(m);
            n++;
        }
        if (n != BATCH) {
            throw new IllegalStateException(n + " requests decoded from one read (expected: " + BATCH + ")");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        for (ByteBuf b : reads) {
            b.release();
        }
    }
}
