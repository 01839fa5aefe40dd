package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.protocol.BackendReply;
import io.locus.memcached.protocol.BackendResponseDecoder;
import io.locus.memcached.protocol.ProtocolLimits;
import io.locus.memcached.protocol.ReplyFormat;
import io.locus.memcached.protocol.RequestWriter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
 * The proxy's side of a backend connection, per request: {@link RequestWriter} encoding the request it forwards, and
 * {@link BackendResponseDecoder} framing the backend's reply (finding its end and, for a get, each item) so the reply
 * can be relayed to the client byte for byte.
 *
 * <p>Workload: keys and ETC value sizes of {@link ProxyWorkload}. {@code kind}: {@code GET} {@code get <key>} answered
 * by one {@code VALUE} item and {@code END}; {@code SET} {@code set <key> 0 0 <n>} with its data block, answered
 * {@code STORED}; {@code META_GET} {@code mg <key> v f t} answered {@code VA <n> f0 t-1} and the value. Replies are
 * decoded {@value #BATCH} per read, as they arrive on a busy pipelined connection; scores are per request.
 *
 * <p>Run: {@code ./locus bench jmh BackendWireBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class BackendWireBenchmark {
    static final int BATCH = 64;

    /** Request and reply shapes. */
    public enum Kind {
        GET("get", ReplyFormat.VALUES),
        SET("set", ReplyFormat.LINE),
        META_GET("mg", ReplyFormat.META);

        final String word;
        final ReplyFormat format;

        Kind(String word, ReplyFormat format) {
            this.word = word;
            this.format = format;
        }
    }

    @Param({"GET", "SET", "META_GET"})
    public Kind kind;

    private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
    private List<String>[] args;
    private ByteBuf[] data;
    private BackendResponseDecoder decoder;
    private EmbeddedChannel channel;
    private ByteBuf[] replies;
    private int next;

    @Setup(Level.Trial)
    @SuppressWarnings("unchecked")
    public void setUp() {
        Access[] accesses = ProxyWorkload.accesses();
        args = new List[ProxyWorkload.SIZE];
        data = new ByteBuf[ProxyWorkload.SIZE];
        for (int i = 0; i < ProxyWorkload.SIZE; i++) {
            Access a = accesses[i];
            args[i] = switch (kind) {
                case GET -> List.of(a.key());
                case SET -> List.of(a.key(), "0", "0", Integer.toString(a.valueBytes()));
                case META_GET -> List.of(a.key(), "v", "f", "t");
            };
            if (kind == Kind.SET) {
                byte[] v = ProxyWorkload.value(a.valueBytes());
                data[i] = alloc.directBuffer(v.length).writeBytes(v);
            }
        }
        decoder = new BackendResponseDecoder(ProtocolLimits.DEFAULTS);
        channel = new EmbeddedChannel(decoder);
        replies = new ByteBuf[16];
        int a = 0;
        for (int r = 0; r < replies.length; r++) {
            StringBuilder wire = new StringBuilder();
            for (int i = 0; i < BATCH; i++) {
                Access x = accesses[a++ & ProxyWorkload.MASK];
                String value = new String(ProxyWorkload.value(x.valueBytes()), StandardCharsets.ISO_8859_1);
                switch (kind) {
                    case GET ->
                        wire.append("VALUE ")
                                .append(x.key())
                                .append(" 0 ")
                                .append(x.valueBytes())
                                .append("\r\n")
                                .append(value)
                                .append("\r\nEND\r\n");
                    case SET -> wire.append("STORED\r\n");
                    case META_GET ->
                        wire.append("VA ")
                                .append(x.valueBytes())
                                .append(" f0 t-1\r\n")
                                .append(value)
                                .append("\r\n");
                    default -> throw new IllegalStateException("no reply for " + kind);
                }
            }
            byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
            replies[r] = alloc.directBuffer(bytes.length).writeBytes(bytes);
        }
    }

    /** One forwarded request written for the backend; the buffer is released as the socket write would. */
    @Benchmark
    public void encodeRequest(Blackhole bh) {
        int i = next++ & ProxyWorkload.MASK;
        ByteBuf wire = RequestWriter.write(alloc, kind.word, args[i], data[i], false);
        bh.consume(wire.readableBytes());
        wire.release();
    }

    /** One read of {@value #BATCH} replies decoded into {@link BackendReply}s. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void decodeReply(Blackhole bh) {
        for (int i = 0; i < BATCH; i++) {
            decoder.expect(kind.format);
        }
        channel.writeInbound(replies[next++ & (replies.length - 1)].retainedDuplicate());
        int n = 0;
        for (BackendReply r = channel.readInbound(); r != null; r = channel.readInbound()) {
            bh.consume(r.items());
            r.release();
            n++;
        }
        if (n != BATCH) {
            throw new IllegalStateException(n + " replies decoded from one read (expected: " + BATCH + ")");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        channel.finishAndReleaseAll();
        for (ByteBuf b : replies) {
            b.release();
        }
        for (ByteBuf b : data) {
            if (b != null) {
                b.release();
            }
        }
    }
}
