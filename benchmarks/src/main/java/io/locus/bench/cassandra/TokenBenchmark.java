package io.locus.bench.cassandra;

import io.locus.cassandra.DropPartitioner;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.cassandra.dht.ByteOrderedPartitioner;
import org.apache.cassandra.dht.IPartitioner;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Token;
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
 * {@code IPartitioner.getToken} cost of DROP against Cassandra's Murmur3Partitioner and ByteOrderedPartitioner, on the
 * same keys, in one run.
 *
 * <p>Workload: 4,096 precomputed heap {@code ByteBuffer} keys per key set, cycled with a mask.
 * <ul>
 *   <li>{@code SHORT}: "/" plus one or two short names ("/etc/hosts"), 2-16 bytes;</li>
 *   <li>{@code TYPICAL}: 4,184 real paths (every 27th path installed by dpkg on the Debian build host,
 *       {@code bench/typical-paths.txt}), mean depth 6;</li>
 *   <li>{@code DEEP}: synthetic paths of 21-30 levels (the overflow field);</li>
 *   <li>{@code NON_PATH}: 36-character UUID strings (system tables, ids).</li>
 * </ul>
 * Run: {@code java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes" org.openjdk.jmh.Main
 * TokenBenchmark} (or {@code ./locus bench TokenBenchmark}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
        value = 1,
        jvmArgsAppend = {
            "-Xmx1g",
            "--add-exports",
            "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports",
            "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.nio=ALL-UNNAMED",
            "--add-opens",
            "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.util=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.io=ALL-UNNAMED"
        })
public class TokenBenchmark {
    /** The partitioners compared. */
    public enum Impl {
        DROP(DropPartitioner.instance),
        MURMUR3(Murmur3Partitioner.instance),
        BYTE_ORDERED(ByteOrderedPartitioner.instance);

        final IPartitioner partitioner;

        Impl(IPartitioner partitioner) {
            this.partitioner = partitioner;
        }
    }

    /** The key sets. */
    public enum Keys {
        SHORT,
        TYPICAL,
        DEEP,
        NON_PATH
    }

    private static final int SIZE = 4096;
    private static final int MASK = SIZE - 1;

    @Param({"DROP", "MURMUR3", "BYTE_ORDERED"})
    public Impl impl;

    @Param({"SHORT", "TYPICAL", "DEEP", "NON_PATH"})
    public Keys keys;

    private IPartitioner partitioner;
    private ByteBuffer[] buffers;
    private int next;

    @Setup
    public void setUp() {
        partitioner = impl.partitioner;
        buffers = buffers(keys);
    }

    /** The 4,096 key buffers of a key set (also used by {@link TokenCostInterleaved}). */
    static ByteBuffer[] buffers(Keys keys) {
        List<String> source = switch (keys) {
            case SHORT -> shortKeys();
            case TYPICAL -> typicalKeys();
            case DEEP -> deepKeys();
            case NON_PATH -> nonPathKeys();
        };
        ByteBuffer[] b = new ByteBuffer[SIZE];
        for (int i = 0; i < SIZE; i++) {
            b[i] = ByteBuffer.wrap(source.get(i % source.size()).getBytes(StandardCharsets.UTF_8));
        }
        return b;
    }

    @Benchmark
    public Token getToken() {
        return partitioner.getToken(buffers[next++ & MASK]);
    }

    private static List<String> shortKeys() {
        Random r = new Random(1);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            out.add(
                    r.nextBoolean()
                            ? "/" + name(r, 2 + r.nextInt(5))
                            : "/" + name(r, 3) + "/" + name(r, 2 + r.nextInt(6)));
        }
        return out;
    }

    private static List<String> deepKeys() {
        Random r = new Random(2);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            StringBuilder b = new StringBuilder();
            int depth = 21 + r.nextInt(10);
            for (int d = 0; d < depth; d++) {
                b.append('/').append(name(r, 3 + r.nextInt(6)));
            }
            out.add(b.toString());
        }
        return out;
    }

    private static List<String> nonPathKeys() {
        Random r = new Random(3);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < SIZE; i++) {
            out.add(new java.util.UUID(r.nextLong(), r.nextLong()).toString());
        }
        return out;
    }

    private static List<String> typicalKeys() {
        List<String> out = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                TokenBenchmark.class.getResourceAsStream("/bench/typical-paths.txt"), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                out.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    private static String name(Random r, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append((char) ('a' + r.nextInt(26)));
        }
        return b.toString();
    }
}
