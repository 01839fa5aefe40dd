package io.locus.bench.cassandra;

import io.locus.cassandra.DropPartitioner;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.cassandra.dht.ByteOrderedPartitioner;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Token;

/**
 * {@code getToken} cost of the {@link TokenBenchmark} partitioners on its key sets, for a machine too loaded for JMH's
 * averages: the partitioners take turns in short rounds inside one JVM (after a warm-up of the same rounds), and each
 * one's best round is reported. A round that lost the CPU to another process only raises that round's time, so the
 * best rounds of partitioners measured in the same minutes compare fairly; the absolute numbers are a lower bound of
 * a quiet machine's.
 *
 * <p>Run: {@code java -cp "$(cat benchmarks/target/classpath.txt):benchmarks/target/classes"
 * io.locus.bench.cassandra.TokenCostInterleaved [rounds]} (default 60 measured rounds of 50 × 4,096 keys each).
 */
public final class TokenCostInterleaved {
    private TokenCostInterleaved() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds " + rounds + " (expected: >= 1)");
        }
        TokenBenchmark.Impl[] impls = TokenBenchmark.Impl.values();
        Token[] sink = new Token[1024];
        System.out.printf("# best of %d interleaved rounds, ns per getToken; ratio = DROP / MURMUR3%n", rounds);
        System.out.printf("%-9s %10s %10s %13s %7s%n", "keys", "DROP", "MURMUR3", "BYTE_ORDERED", "ratio");
        for (TokenBenchmark.Keys keys : TokenBenchmark.Keys.values()) {
            List<ByteBuffer> buffers = List.of(TokenBenchmark.buffers(keys));
            double[] best = new double[impls.length];
            java.util.Arrays.fill(best, Double.MAX_VALUE);
            for (int round = -rounds / 3; round < rounds; round++) { // the first third warms up the JIT
                for (int p = 0; p < impls.length; p++) {
                    long start = System.nanoTime();
                    switch (impls[p]) {
                        case DROP -> dropRound(buffers, sink);
                        case MURMUR3 -> murmur3Round(buffers, sink);
                        case BYTE_ORDERED -> byteOrderedRound(buffers, sink);
                        default -> throw new IllegalStateException("no round for " + impls[p]);
                    }
                    double ns = (System.nanoTime() - start) / (50.0 * buffers.size());
                    if (round >= 0) {
                        best[p] = Math.min(best[p], ns);
                    }
                }
            }
            System.out.printf("%-9s %10.1f %10.1f %13.1f %7.2f%n", keys, best[0], best[1], best[2], best[0] / best[1]);
        }
        if (sink[0] == null) {
            throw new AssertionError("no token computed");
        }
    }

    // One loop per partitioner, so each call site stays monomorphic (and inlined) as in a JMH fork or a Cassandra node,
    // which only ever runs one partitioner; one shared loop would make the call megamorphic for all three.
    private static void dropRound(List<ByteBuffer> keys, Token[] sink) {
        for (int rep = 0; rep < 50; rep++) {
            for (int i = 0; i < keys.size(); i++) {
                sink[i & 1023] = DropPartitioner.instance.getToken(keys.get(i));
            }
        }
    }

    private static void murmur3Round(List<ByteBuffer> keys, Token[] sink) {
        for (int rep = 0; rep < 50; rep++) {
            for (int i = 0; i < keys.size(); i++) {
                sink[i & 1023] = Murmur3Partitioner.instance.getToken(keys.get(i));
            }
        }
    }

    private static void byteOrderedRound(List<ByteBuffer> keys, Token[] sink) {
        for (int rep = 0; rep < 50; rep++) {
            for (int i = 0; i < keys.size(); i++) {
                sink[i & 1023] = ByteOrderedPartitioner.instance.getToken(keys.get(i));
            }
        }
    }
}
