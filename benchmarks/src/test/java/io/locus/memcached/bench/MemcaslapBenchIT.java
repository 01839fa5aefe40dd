package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.Leftovers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --detail} and {@code --variant} end to end, one short round against real memcached, twemproxy and the
 * proxy's shaded jar: every target ran with its variant after its base, the detail table has a row for each watched
 * process (memcaslap busy, the Locus I/O threads named, the variant's {@code io_threads: 2} giving two), and nothing is
 * left behind.
 */
class MemcaslapBenchIT {

    @Test
    void detailAndVariant_measureEveryProcessOfEveryRun() throws Exception {
        Leftovers before = Leftovers.snapshot();
        Path jar = Path.of(System.getProperty("locus.proxy.jar", "../memcached-proxy/target/" + ProxyBench.JAR_NAME));
        assertTrue(Files.isRegularFile(jar), "proxy jar " + jar.toAbsolutePath());
        Path out = Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("memcaslap-it")
                .toAbsolutePath();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        MemcaslapBench bench = new MemcaslapBench(
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        int exit = new CommandLine(bench)
                .execute(
                        "--rounds",
                        "1",
                        "--seconds",
                        "3",
                        "--warmup",
                        "0",
                        "--detail",
                        "--variant",
                        "two=io_threads: 2",
                        "--proxy-jar",
                        jar.toString(),
                        "--proxy-jvm-arg=-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                        "--out",
                        out.toString());
        String table = stdout.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, table);

        List<String> expected = new ArrayList<>(MemcaslapBench.TARGETS);
        expected.add(expected.indexOf("locus-pass-through") + 1, "locus-pass-through+two");
        expected.add(expected.indexOf("locus-full-hot") + 1, "locus-full-hot+two");
        assertEquals(
                expected,
                bench.runs().stream().map(MemcaslapBench.Run::target).toList(),
                "each variant right after its base");
        for (String target : expected) {
            List<String[]> rows = table.lines()
                    .filter(l -> l.startsWith("1     " + target + " "))
                    .map(l -> l.trim().split(" +"))
                    .filter(f -> f.length > 10)
                    .toList();
            String[] memcaslap = rows.stream()
                    .filter(f -> f[2].equals("memcaslap"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(target + ": no memcaslap row\n" + table));
            assertTrue(Double.parseDouble(memcaslap[3]) > 0, target + ": memcaslap used no CPU\n" + table);
            assertTrue(rows.stream().anyMatch(f -> f[2].equals("memcached")), target + ": no memcached row");
            assertTrue(rows.stream().anyMatch(f -> f[2].equals("all")), target + ": no 'all' row");
            long ioThreads =
                    rows.stream().filter(f -> f[2].startsWith("locus-io")).count();
            long want = !target.startsWith("locus") ? 0 : target.contains("2t") || target.endsWith("+two") ? 2 : 1;
            assertEquals(want, ioThreads, target + ": I/O thread rows\n" + table);
        }
        assertTrue(table.contains("locus-pass-through+two / locus-pass-through per round"), table);
        assertTrue(table.contains("all us/op twemproxy / locus-pass-through: "), table);
        assertEquals(List.of(), before.leftBehind(), "new entries in " + Leftovers.SCRATCH_DIRS);
    }
}
