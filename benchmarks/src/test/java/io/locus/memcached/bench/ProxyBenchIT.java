package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Leftovers;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The harness end to end, briefly, against real memcached, real twemproxy and the proxy's shaded jar: every row is
 * in the table, every row that ran has non-zero throughput, the files are written, and nothing is left running.
 */
class ProxyBenchIT {

    @Test
    void quickRunHasEveryRowWithThroughput() throws Exception {
        Leftovers before = Leftovers.snapshot();
        Path jar = Path.of(System.getProperty("locus.proxy.jar", "../memcached-proxy/target/" + ProxyBench.JAR_NAME));
        assertTrue(
                Files.isRegularFile(jar),
                "proxy jar " + jar.toAbsolutePath()
                        + " (expected: built by the reactor's memcached-proxy package phase)");
        Path out = Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("bench-it")
                .toAbsolutePath();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        ProxyBench bench = new ProxyBench(
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        int exit = new CommandLine(bench)
                .execute(
                        "--quick",
                        "--seconds",
                        "2",
                        "--warmup",
                        "1",
                        "--keys-per-tenant",
                        "1000",
                        "--connections",
                        "8",
                        "--memcaslap-rounds",
                        "1",
                        "--memcaslap-seconds",
                        "1",
                        "--proxy-jar",
                        jar.toString(),
                        "--proxy-jvm-arg=-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), // target/
                        "--out",
                        out.toString());
        String table = stdout.toString(StandardCharsets.UTF_8);
        String progress = stderr.toString(StandardCharsets.UTF_8);
        System.out.println(table);
        assertEquals(0, exit, "exit code; stdout:\n" + table + "\nstderr:\n" + progress);

        List<String> labels = bench.results().stream().map(RowResult::label).toList();
        assertEquals(List.of("direct", "twemproxy", "locus", "locus-dlc", "locus-dlc-dls"), labels);
        for (RowResult row : bench.results()) {
            if (row.label().startsWith("locus-dlc") && !row.ran()) {
                assertTrue(row.unavailable().startsWith("not available yet"), row.label() + ": " + row.unavailable());
                continue;
            }
            assertTrue(row.ran(), row.label() + " did not run: " + row.unavailable());
            assertTrue(row.result().throughput() > 0, row.label() + " has no throughput");
            assertTrue(row.result().total().gets > 0, row.label() + " made no gets");
            assertTrue(table.lines().anyMatch(l -> l.startsWith(row.label() + " ")), row.label() + " not in\n" + table);
        }
        assertTrue(
                bench.results().get(0).result().total().hitRatio() > 0.99,
                "direct memcached is preloaded with every key: hit ratio "
                        + bench.results().get(0).result().total().hitRatio());
        assertTrue(table.contains("emulation: scaled10"), "the table names its emulation");
        assertTrue(table.lines().anyMatch(l -> l.matches("# proxy CPU locus: [0-9.]+ us/op .*")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("#   locus-dlc-dls ")), "deadline report:\n" + table);
        assertTrue(table.contains("# added latency vs direct"), table);
        assertTrue(progress.contains("[1/5 direct]"), "progress on stderr: " + progress);
        assertEquals(
                MemcaslapBench.TARGETS,
                bench.memcaslapRuns().stream().map(MemcaslapBench.Run::target).toList(),
                "one memcaslap round after the rows");
        for (MemcaslapBench.Run r : bench.memcaslapRuns()) {
            assertTrue(r.tps() > 0, r.target() + " has no memcaslap throughput");
        }
        MemcaslapBench.Run hot = bench.memcaslapRuns().get(MemcaslapBench.TARGETS.indexOf("locus-full-hot"));
        assertTrue(
                hot.localHitRatio() > 0.5,
                "the hot-read mix is served from the full proxy's deadline cache: " + hot.localHitRatio());
        assertTrue(table.contains("full / direct, hot "), table);
        assertTrue(Files.isRegularFile(out.resolve("memcaslap").resolve("proxy-memcaslap.txt")), "memcaslap table");
        String csv = Files.readString(out.resolve("proxy-bench.csv"));
        assertTrue(csv.lines().anyMatch(l -> l.startsWith("twemproxy,ALL,")), csv);

        for (long pid : bench.pidsStarted()) {
            assertFalse(HostProcess.isPidAlive(pid), "pid " + pid + " still alive after the run");
        }
        assertEquals(List.of(), before.leftBehind(), "new entries in " + Leftovers.SCRATCH_DIRS);
    }

    @Test
    void openLoopRunUsesTheNioGeneratorAndComparesClocks() throws Exception {
        Leftovers before = Leftovers.snapshot();
        Path jar = Path.of(System.getProperty("locus.proxy.jar", "../memcached-proxy/target/" + ProxyBench.JAR_NAME));
        Path out = Path.of(System.getProperty("java.io.tmpdir"))
                .resolve("bench-it-nio")
                .toAbsolutePath();
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        ProxyBench bench = new ProxyBench(
                new PrintStream(stdout, true, StandardCharsets.UTF_8),
                new PrintStream(stderr, true, StandardCharsets.UTF_8));
        int exit = new CommandLine(bench)
                .execute(
                        "--quick",
                        "--seconds",
                        "2",
                        "--warmup",
                        "1",
                        "--keys-per-tenant",
                        "1000",
                        "--rate",
                        "1000",
                        "--busy-loops",
                        "1",
                        "--rows",
                        "direct,locus-dlc-dls",
                        "--memcaslap-rounds",
                        "0",
                        "--proxy-jar",
                        jar.toString(),
                        "--proxy-jvm-arg=-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"), // target/
                        "--out",
                        out.toString());
        String table = stdout.toString(StandardCharsets.UTF_8);
        System.out.println(table);
        assertEquals(0, exit, "exit code; stdout:\n" + table + "\nstderr:\n" + stderr);
        assertTrue(table.contains("nio generator"), table);
        for (RowResult row : bench.results()) {
            assertTrue(row.ran(), row.label() + " did not run: " + row.unavailable());
            // 1000/s for 2 s, Poisson: about 2000 requests in the window by their intended starts (a seeded stream,
            // whatever the machine's speed), each answered or counted as unanswered.
            OpStats total = row.result().total();
            assertTrue(
                    total.ops() + total.unanswered() > 1500 && total.ops() + total.unanswered() < 2600,
                    row.label() + " ops " + total.ops() + ", unanswered " + total.unanswered());
            assertTrue(total.ops() > 0, row.label() + " answered nothing");
        }
        assertTrue(table.lines().anyMatch(l -> l.startsWith("# generator direct: ")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("# clocks locus-dlc-dls gold admitted met: ")), table);
        assertTrue(table.contains("busy loops keep the vCPUs awake"), table);
        for (long pid : bench.pidsStarted()) {
            assertFalse(HostProcess.isPidAlive(pid), "pid " + pid + " still alive after the run");
        }
        assertEquals(List.of(), before.leftBehind(), "new entries in " + Leftovers.SCRATCH_DIRS);
    }
}
