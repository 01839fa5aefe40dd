package io.locus.demo.drop;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.locus.cassandra.DropPartitioner;
import io.locus.cassandra.DropSessions;
import io.locus.cassandra.NamespaceLoader;
import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.cli.DropCommand;
import io.locus.cassandra.drop.DirectoryRanges;
import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.PathNames;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.fixture.CassandraNode;
import io.locus.cassandra.fixture.ForkedCassandraNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * The DROP step of {@code ./locus demo}: a real Cassandra 5.0.9 node (forked JVM) running
 * {@code partitioner: io.locus.cassandra.DropPartitioner} with 16 tokens from {@code locus-drop plan}, holding the
 * real namespace of the test resources (the dpkg file list, 112,993 paths). Prints the load rate, one directory
 * listed as a single token-range scan (checked against the file) and the rows of each token range (checked against the
 * keys' tokens). Lives in test scope so the shipped jar carries no fixture; the {@code locus} script runs it with
 * {@code target/test-classpath.txt}.
 *
 * <p>Usage: {@code DropDemo DIRECTORY [EVERY_NTH]}; DIRECTORY must be under a {@code target/} (emptied), EVERY_NTH
 * (default 1: all paths) loads a subset. Exit 0 when every check holds, 1 otherwise.
 */
public final class DropDemo {
    private static final String DIR = "/usr/bin";
    private static final int TOKENS = 16;

    private DropDemo() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: DropDemo DIRECTORY [EVERY_NTH]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        int everyNth = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        boolean ok;
        try {
            ok = run(dir, everyNth);
        } catch (RuntimeException | IOException e) {
            System.out.println("DROP demo FAILED: " + e);
            e.printStackTrace();
            ok = false;
        }
        System.exit(ok ? 0 : 1);
    }

    private static boolean run(Path dir, int everyNth) throws IOException, InterruptedException {
        List<String> paths = TestNamespace.everyNth(everyNth);
        Files.createDirectories(dir);
        Path keys = dir.resolve("keys.txt.gz");
        try (InputStream in = TestNamespace.class.getResourceAsStream(TestNamespace.RESOURCE)) {
            Files.copy(in, keys, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String[] tokens = plan(keys);
        System.out.printf(
                "locus-drop plan --nodes 1 --vnodes %d: %d tokens, planned from the %,d paths of %s%n",
                TOKENS, tokens.length, TestNamespace.paths().size(), TestNamespace.RESOURCE.substring(1));

        CassandraNode.Options options = CassandraNode.Options.defaults()
                .withDirectory(dir.resolve("node"))
                .withPartitioner(DropPartitioner.class.getName())
                .withNumTokens(TOKENS)
                .withInitialTokens(tokens);
        long t0 = System.nanoTime();
        try (ForkedCassandraNode node = ForkedCassandraNode.create(options).start();
                CqlSession s = DropSessions.open(node.contactPoint())) {
            System.out.printf(
                    "Cassandra 5.0.9 node (forked JVM, partitioner %s, num_tokens %d) up on %s in %.1f s%n",
                    s.getMetadata().getTokenMap().orElseThrow().getPartitionerName(),
                    TOKENS,
                    node.contactPoint().getHostString(),
                    (System.nanoTime() - t0) / 1e9);
            s.execute("CREATE KEYSPACE fs WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE fs.inodes (path text PRIMARY KEY, depth int)");
            long l0 = System.nanoTime();
            try (ProgressBar pb = new ProgressBarBuilder()
                    .setTaskName("insert")
                    .setInitialMax(paths.size())
                    .setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .setUpdateIntervalMillis(500)
                    .build()) {
                NamespaceLoader.load(s, "fs.inodes", paths, pb::step);
            }
            double seconds = (System.nanoTime() - l0) / 1e9;
            System.out.printf(
                    "loaded %,d paths%s in %.1f s: %,.0f inserts/s (async, 128 in flight)%n",
                    paths.size(),
                    everyNth == 1 ? " (the whole namespace)" : " (1 in " + everyNth + " of the namespace)",
                    seconds,
                    paths.size() / seconds);
            boolean listingOk = listing(s, paths);
            boolean rangesOk = ranges(s, paths, tokens);
            return listingOk && rangesOk;
        }
    }

    /** {@code locus-drop plan} itself, as an operator would run it; its JSON names the node's initial_token. */
    private static String[] plan(Path keys) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        int exit;
        try {
            // The table holds paths only: no share of the ranges for the reserved (non-path) region, so the 16 ranges
            // the demo counts each get 1/16 of the paths.
            exit = DropCommand.run(
                    "plan",
                    "--keys",
                    keys.toString(),
                    "--nodes",
                    "1",
                    "--vnodes",
                    String.valueOf(TOKENS),
                    "--reserved-share",
                    "0",
                    "--json");
        } finally {
            System.setOut(out);
        }
        String json = buf.toString(StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"initial_token\":\"([0-9a-f,]+)\"").matcher(json);
        if (exit != 0 || !m.find()) {
            throw new IllegalStateException("locus-drop plan failed (exit " + exit + "): " + json);
        }
        return m.group(1).split(",");
    }

    private static boolean listing(CqlSession s, List<String> paths) {
        int depth = PathNames.components(DIR).size();
        Set<String> expected = new HashSet<>();
        for (String p : paths) {
            if (p.startsWith(DIR + "/") && PathNames.components(p).size() == depth + 1) {
                expected.add(p);
            }
        }
        DirectoryRanges.Interval r = DirectoryRanges.listing(DIR);
        PreparedStatement scan = s.prepare("SELECT path FROM fs.inodes WHERE token(path) >= ? AND token(path) <= ?");
        long t0 = System.nanoTime();
        Set<String> got = new HashSet<>();
        int rows = 0;
        for (Row row : s.execute(
                scan.bind(ByteBuffer.wrap(r.first()), ByteBuffer.wrap(r.last())).setPageSize(5000))) {
            rows++;
            String p = row.getString(0);
            // Sibling directories whose 16-bit codes collide share the range: clients keep their own entries.
            if (PathNames.components(p).size() == depth + 1 && p.startsWith(DIR + "/")) {
                got.add(p);
            }
        }
        double ms = (System.nanoTime() - t0) / 1e6;
        boolean ok = got.equals(expected);
        System.out.printf(
                "%nls %s = ONE token-range scan: SELECT path FROM fs.inodes WHERE token(path) >= 0x%s AND "
                        + "token(path) <= 0x%s%n",
                DIR, abbreviate(r.first()), abbreviate(r.last()));
        System.out.printf(
                "  %,d rows in %.0f ms (%d of another directory sharing the codes); the file lists %,d direct "
                        + "entries of %s: %s%n",
                rows, ms, rows - got.size(), expected.size(), DIR, ok ? "same set" : "MISMATCH");
        return ok;
    }

    /** Rows per token range, by a count(*) over each range, against the keys' own tokens. */
    private static boolean ranges(CqlSession s, List<String> paths, String[] tokens) {
        byte[][] t = Arrays.stream(tokens)
                .map(TokenMath::fromHex)
                .sorted(TokenMath::compare)
                .toArray(byte[][]::new);
        long[] expected = new long[t.length];
        for (String p : paths) {
            byte[] k = PathEncoder.encode(p.getBytes(StandardCharsets.UTF_8));
            int i = 0;
            while (i < t.length && TokenMath.compare(k, t[i]) > 0) {
                i++;
            }
            expected[i % t.length]++; // above the last token wraps to the first range
        }
        PreparedStatement between =
                s.prepare("SELECT count(*) FROM fs.inodes WHERE token(path) > ? AND token(path) <= ?");
        PreparedStatement above = s.prepare("SELECT count(*) FROM fs.inodes WHERE token(path) > ?");
        PreparedStatement upTo = s.prepare("SELECT count(*) FROM fs.inodes WHERE token(path) <= ?");
        System.out.printf(
                "%nrows per token range (the node's %d ranges; \"Owns\" as nodetool would count keys):%n", t.length);
        System.out.printf("  %-5s %-26s %9s %7s%n", "range", "ends at token", "rows", "owns");
        long total = 0;
        long max = 0;
        long min = Long.MAX_VALUE;
        boolean ok = true;
        long[] rows = new long[t.length];
        for (int i = 0; i < t.length; i++) {
            ByteBuffer end = ByteBuffer.wrap(t[i]);
            rows[i] = i == 0
                    ? count(s, above.bind(ByteBuffer.wrap(t[t.length - 1]))) + count(s, upTo.bind(end))
                    : count(s, between.bind(ByteBuffer.wrap(t[i - 1]), end));
            ok &= rows[i] == expected[i];
            total += rows[i];
            max = Math.max(max, rows[i]);
            min = Math.min(min, rows[i]);
        }
        for (int i = 0; i < t.length; i++) {
            System.out.printf(
                    "  %-5d %-26s %9s %6.2f%%%s%n",
                    i + 1,
                    TokenMath.toHex(t[i]).substring(0, 20) + "...",
                    String.format("%,d", rows[i]),
                    100.0 * rows[i] / total,
                    rows[i] == expected[i] ? "" : "  MISMATCH: the keys' tokens put " + expected[i] + " here");
        }
        double mean = (double) total / t.length;
        System.out.printf(
                "  %,d rows (%s); per range: max/mean %.3f, max/min %.3f; every count = the keys' own tokens: %s%n",
                total,
                total == paths.size() ? "= paths loaded" : "MISMATCH: " + paths.size() + " loaded",
                max / mean,
                (double) max / min,
                ok ? "yes" : "NO");
        return ok && total == paths.size();
    }

    /** The level codes of the parent directories lead, the 4-byte name field ends a token: show both ends. */
    private static String abbreviate(byte[] token) {
        String hex = TokenMath.toHex(token);
        return hex.substring(0, 16) + "..." + hex.substring(hex.length() - 8);
    }

    private static long count(CqlSession s, com.datastax.oss.driver.api.core.cql.BoundStatement st) {
        return s.execute(st).one().getLong(0);
    }
}
