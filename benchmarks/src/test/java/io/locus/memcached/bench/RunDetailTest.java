package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDetailTest {
    @Test
    void parse_readsTicksAndContextSwitchesPastANameWithSpaces() {
        String stat = "4242 (C2 CompilerThre) S 1 2 3 0 -1 4194304 100 0 0 0 70 30 0 0 20 0 1 0 5 6 7";
        String status = "Name:\tC2\nvoluntary_ctxt_switches:\t12\nnonvoluntary_ctxt_switches:\t3\n";
        assertEquals(
                new HostUsage.ThreadCounters(4242, "C2 CompilerThre", 100, 30, 12, 3),
                HostUsage.parse(4242, stat, status));
        assertThrows(
                IllegalArgumentException.class,
                () -> HostUsage.parse(4242, stat, "Name:\tC2\n"),
                "a status without context switch lines is refused");
    }

    @Test
    void delta_countsNewThreadsFromZeroAndDropsEndedOnes() {
        List<HostUsage.ThreadCounters> before = List.of(
                new HostUsage.ThreadCounters(1, "main", 100, 10, 5, 1),
                new HostUsage.ThreadCounters(2, "gone", 50, 0, 1, 1));
        List<HostUsage.ThreadCounters> after = List.of(
                new HostUsage.ThreadCounters(1, "main", 160, 25, 9, 4),
                new HostUsage.ThreadCounters(3, "born", 7, 2, 2, 0));
        Map<Long, HostUsage.ThreadCounters> d = HostUsage.delta(before, after);
        assertEquals(new HostUsage.ThreadCounters(1, "main", 60, 15, 4, 3), d.get(1L));
        assertEquals(new HostUsage.ThreadCounters(3, "born", 7, 2, 2, 0), d.get(3L));
        assertEquals(2, d.size());
    }

    @Test
    void parsePerf_mapsThreadIdsToSystemCalls() {
        String perf = "# started on Thu\n\nmemcaslap-4711,52595,,raw_syscalls:sys_enter,349359986,100.00,,\n"
                + "locus-io-3-1-4800,<not counted>,,raw_syscalls:sys_enter,0,100.00,,\n"
                + "mc-worker-5000,1200,,raw_syscalls:sys_enter,1,100.00,,\n";
        assertEquals(Map.of(4711L, 52595L, 4800L, 0L, 5000L, 1200L), RunDetail.parsePerf(perf));
    }

    @Test
    void rows_givePerRequestCosts() {
        RunDetail.Usage u = new RunDetail.Usage("memcached", 0.5, 0.25, 0.5, "mc-worker", 1000, 200, 200_000);
        String row = RunDetail.rows(1, "direct", 100_000, List.of(u));
        // 0.5 cores at 100k ops/s = 5 us per request; 2 system calls, 0.01 voluntary switches per request
        assertTrue(
                row.contains(
                        "memcached            0.50   0.50  mc-worker           5.00    25%   0.010   0.002     2.00"),
                row);
    }

    @Test
    void variant_parsesSettingsAndJvmOptionsAndRefusesABadName() {
        MemcaslapVariant v = MemcaslapVariant.parse("bp50=server: {busy_poll_us: 50}; -J-XX:+UseSerialGC");
        assertEquals("bp50", v.name());
        assertEquals(Map.of("server", Map.of("busy_poll_us", 50)), v.settings());
        assertEquals(List.of("-XX:+UseSerialGC"), v.jvmArgs());
        assertEquals(Path.of("base.jar"), v.jarOr(Path.of("base.jar")), "no -jar line: the base's jar");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> MemcaslapVariant.parse("a b=io_threads: 2"));
        assertTrue(e.getMessage().contains("--variant a b=io_threads: 2 (expected: NAME=LINE"), e.getMessage());
    }

    @Test
    void variant_jar_isAnotherBuildOfTheProxy_aMissingOneIsRefused(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("other.jar"), "a jar");
        MemcaslapVariant v = MemcaslapVariant.parse("new=-jar " + jar + "; io_threads: 2");
        assertEquals(jar, v.jarOr(Path.of("base.jar")));
        assertEquals(Map.of("io_threads", 2), v.settings());
        Path missing = dir.resolve("missing.jar");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> MemcaslapVariant.parse("new=-jar " + missing));
        assertEquals(
                "--variant new=-jar " + missing + ": jar " + missing + " is not a file (expected: a proxy jar)",
                e.getMessage());
    }

    @Test
    void chainTable_comparesTheSetupsCpuPerRequest() {
        String t = RunDetail.chainTable(Map.of(
                "twemproxy", List.of(12.0, 13.0, 11.0),
                "locus-pass-through", List.of(9.0, 10.0, 8.0)));
        assertTrue(t.contains("twemproxy                   12.00"), t);
        assertTrue(t.contains("all us/op twemproxy / locus-pass-through: 1.33, the throughput ratio"), t);
        assertTrue(!t.contains("direct-hot"), "no pair without both sides\n" + t);
    }
}
