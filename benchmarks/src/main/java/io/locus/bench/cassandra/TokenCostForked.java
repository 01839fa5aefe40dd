package io.locus.bench.cassandra;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.cassandra.dht.IPartitioner;
import org.apache.cassandra.dht.Token;
import org.openjdk.jmh.annotations.Fork;

/**
 * {@code getToken} cost with one partitioner per JVM, as in a Cassandra node: for each partitioner, {@code --forks}
 * fresh JVMs each run only that partitioner over the {@link TokenBenchmark} key sets (a third of the rounds to warm
 * up, then {@code --rounds} rounds of 50 × 4,096 keys) and report their best round. The JIT of one JVM may settle in a
 * slower mode than the next (Murmur3Partitioner does: two speeds a factor 2-3 apart), so every fork is printed and
 * DROP is compared with Murmur3's fastest fork (the ratio that does not flatter DROP) as well as its median. With
 * {@code --jmh FILE} (JMH's {@code -rf json} output of {@link TokenBenchmark}) the JMH per-fork means are printed
 * side by side.
 *
 * <p>Run: {@code java -cp "benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"
 * io.locus.bench.cassandra.TokenCostForked [--forks 3] [--rounds 60] [--jmh target/jmh-token.json]}.
 */
public final class TokenCostForked {
    /** The JVM flags JMH gives {@link TokenBenchmark}'s forks, so both harnesses run the partitioners alike. */
    private static final List<String> JVM_FLAGS =
            List.of(TokenBenchmark.class.getAnnotation(Fork.class).jvmArgsAppend());

    private TokenCostForked() {}

    public static void main(String[] args) throws Exception {
        int forks = 3;
        int rounds = 60;
        Path jmh = null;
        String child = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--forks" -> forks = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--jmh" -> jmh = Path.of(args[++i]);
                case "--child" -> child = args[++i];
                default ->
                    throw new IllegalArgumentException(
                            "unknown argument " + args[i] + " (expected: --forks N, --rounds N, --jmh FILE)");
            }
        }
        if (forks < 1 || rounds < 1) {
            throw new IllegalArgumentException("--forks " + forks + " --rounds " + rounds + " (expected: >= 1 each)");
        }
        if (child != null) {
            runChild(TokenBenchmark.Impl.valueOf(child), rounds);
            return;
        }
        Map<TokenBenchmark.Impl, Map<TokenBenchmark.Keys, List<Double>>> forked =
                new EnumMap<>(TokenBenchmark.Impl.class);
        TokenBenchmark.Impl[] impls = TokenBenchmark.Impl.values();
        for (int f = 0; f < forks; f++) {
            for (int k = 0; k < impls.length; k++) {
                TokenBenchmark.Impl impl = impls[(k + f) % impls.length]; // rotate the order between rounds of forks
                System.err.printf("token-cost: fork %d/%d of %s ...%n", f + 1, forks, impl);
                fork(impl, rounds)
                        .forEach((keys, ns) -> forked.computeIfAbsent(
                                        impl, x -> new EnumMap<>(TokenBenchmark.Keys.class))
                                .computeIfAbsent(keys, x -> new ArrayList<>())
                                .add(ns));
            }
        }
        Map<String, List<Double>> jmhForks = jmh == null ? Map.of() : jmhForkMeans(jmh);
        print(forked, jmhForks, forks, rounds, jmh);
    }

    private static void print(
            Map<TokenBenchmark.Impl, Map<TokenBenchmark.Keys, List<Double>>> forked,
            Map<String, List<Double>> jmh,
            int forks,
            int rounds,
            Path jmhFile) {
        System.out.printf(
                "# getToken, ns per call. fork: %d JVM(s) per partitioner, one partitioner per JVM, best of %d rounds"
                        + " of 50 x 4,096 keys per JVM%n",
                forks, rounds);
        System.out.println(
                "# Murmur3 fast/slow = its fastest/slowest JVM (its JIT settles at one of two speeds per JVM);"
                        + " DROP/M3 = DROP's median JVM over Murmur3's fastest JVM (and over its median)");
        if (jmhFile != null) {
            System.out.println("# jmh: per-fork means of " + jmhFile.getFileName() + " (avgt); DROP/M3 the same way");
        }
        System.out.printf(
                "%-9s | %-24s %-24s %9s %14s | %-16s %-16s %14s%n",
                "keys",
                "fork DROP (per JVM)",
                "fork M3 (per JVM)",
                "fork BOP",
                "DROP/M3 fast",
                "jmh DROP",
                "jmh M3",
                "DROP/M3 fast");
        for (TokenBenchmark.Keys keys : TokenBenchmark.Keys.values()) {
            List<Double> drop = sorted(forked.get(TokenBenchmark.Impl.DROP).get(keys));
            List<Double> m3 = sorted(forked.get(TokenBenchmark.Impl.MURMUR3).get(keys));
            List<Double> bop =
                    sorted(forked.get(TokenBenchmark.Impl.BYTE_ORDERED).get(keys));
            String jmhDrop = "-";
            String jmhM3 = "-";
            String jmhRatio = "-";
            List<Double> jd = jmh.get("DROP/" + keys);
            List<Double> jm = jmh.get("MURMUR3/" + keys);
            if (jd != null && jm != null) {
                jd = sorted(jd);
                jm = sorted(jm);
                jmhDrop = join(jd);
                jmhM3 = join(jm);
                jmhRatio = String.format("%.2f (%.2f)", median(jd) / jm.get(0), median(jd) / median(jm));
            }
            System.out.printf(
                    "%-9s | %-24s %-24s %9.1f %14s | %-16s %-16s %14s%n",
                    keys,
                    join(drop),
                    join(m3),
                    median(bop),
                    String.format("%.2f (%.2f)", median(drop) / m3.get(0), median(drop) / median(m3)),
                    jmhDrop,
                    jmhM3,
                    jmhRatio);
        }
    }

    private static List<Double> sorted(List<Double> v) {
        List<Double> s = new ArrayList<>(v);
        s.sort(null);
        return s;
    }

    private static double median(List<Double> sorted) {
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static String join(List<Double> v) {
        List<String> s = new ArrayList<>();
        v.forEach(x -> s.add(String.format("%.1f", x)));
        return String.join(" ", s);
    }

    /** Per "IMPL/KEYS", the mean of each JMH fork's iterations. */
    static Map<String, List<Double>> jmhForkMeans(Path file) throws IOException {
        Map<String, List<Double>> out = new java.util.HashMap<>();
        for (JsonNode run : new ObjectMapper().readTree(file.toFile())) {
            JsonNode params = run.get("params");
            String key = params.get("impl").asText() + "/" + params.get("keys").asText();
            List<Double> means = new ArrayList<>();
            for (JsonNode fork : run.get("primaryMetric").get("rawData")) {
                double sum = 0;
                for (JsonNode it : fork) {
                    sum += it.asDouble();
                }
                means.add(sum / fork.size());
            }
            out.put(key, means);
        }
        return out;
    }

    private static Map<TokenBenchmark.Keys, Double> fork(TokenBenchmark.Impl impl, int rounds)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                TokenCostForked.class.getName(),
                "--child",
                impl.name(),
                "--rounds",
                String.valueOf(rounds)));
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        Map<TokenBenchmark.Keys, Double> out = new EnumMap<>(TokenBenchmark.Keys.class);
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] f = line.split("\t");
                out.put(TokenBenchmark.Keys.valueOf(f[0]), Double.parseDouble(f[1]));
            }
        }
        int exit = p.waitFor();
        if (exit != 0 || out.size() != TokenBenchmark.Keys.values().length) {
            throw new IllegalStateException("fork of " + impl + " exited with " + exit + " after " + out.keySet());
        }
        return out;
    }

    /** One JVM, one partitioner: the call site below only ever sees its class, as in a Cassandra node. */
    private static void runChild(TokenBenchmark.Impl impl, int rounds) {
        IPartitioner partitioner = impl.partitioner;
        Token[] sink = new Token[1024];
        for (TokenBenchmark.Keys keys : TokenBenchmark.Keys.values()) {
            ByteBuffer[] buffers = TokenBenchmark.buffers(keys);
            double best = Double.MAX_VALUE;
            for (int round = -rounds / 3; round < rounds; round++) {
                long start = System.nanoTime();
                for (int rep = 0; rep < 50; rep++) {
                    for (int i = 0; i < buffers.length; i++) {
                        sink[i & 1023] = partitioner.getToken(buffers[i]);
                    }
                }
                double ns = (System.nanoTime() - start) / (50.0 * buffers.length);
                if (round >= 0) {
                    best = Math.min(best, ns);
                }
            }
            System.out.println(keys + "\t" + best);
        }
        if (Arrays.stream(sink).allMatch(t -> t == null)) {
            throw new AssertionError("no token computed");
        }
    }
}
