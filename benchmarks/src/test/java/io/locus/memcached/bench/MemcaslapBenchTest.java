package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemcaslapBenchTest {
    static final String OUTPUT = "servers: 127.0.0.1:22999\nthreads count: 1\nconcurrency: 32\nrun time: 3s\n"
            + "windows size: 10k\nset proportion: set_prop=0.10\nget proportion: get_prop=0.90\ncmd_get: 363111\n"
            + "cmd_set: 40363\nget_misses: 0\n\nRun time: 3.0s Ops: 403474 TPS: 134425 Net_rate: 31.8M/s\n";

    @Test
    void parse_readsOpsPerSecondAndTheMix() {
        MemcaslapBench.Run r = MemcaslapBench.parse(OUTPUT, "direct", 2);
        assertEquals(
                new MemcaslapBench.Run("direct", 2, 3.0, 403_474, 134_425, "set 0.10 get 0.90", Double.NaN, Double.NaN),
                r);
        assertNull(MemcaslapBench.parse("connect failed\n", "direct", 1), "no result line, no run");
    }

    @Test
    void table_givesMediansRatiosAndTheGoalsPerRound() {
        List<MemcaslapBench.Run> runs = new ArrayList<>();
        // direct, twemproxy, pass-through, full, direct-hot, full-hot, full-2t-hot
        long[][] tps = {
            {100, 40, 50, 60, 200, 150, 180}, {90, 40, 60, 70, 200, 170, 150}, {110, 50, 55, 65, 100, 90, 70}
        };
        for (int round = 0; round < tps.length; round++) {
            for (int t = 0; t < MemcaslapBench.TARGETS.size(); t++) {
                runs.add(new MemcaslapBench.Run(
                        MemcaslapBench.TARGETS.get(t),
                        round + 1,
                        10,
                        tps[round][t] * 10,
                        tps[round][t],
                        "",
                        1.5,
                        t >= 5 ? 0.95 : Double.NaN));
            }
        }
        String table = MemcaslapBench.table(runs);
        // medians: direct 100, twemproxy 40, pass-through 55, full 65; direct-hot 200, full-hot 150
        assertTrue(table.contains("locus-pass-through           55      0.55       1.38"), table);
        assertTrue(table.contains("locus-full                   65      0.65       1.63"), table);
        assertTrue(
                table.contains("locus-full-hot              150      0.75 "),
                "hot targets against direct-hot\n" + table);
        // per-round ratios 1.25 1.50 1.10 (median 1.25) and 0.75 0.85 0.90 (median 0.85)
        assertTrue(
                table.contains("per round 1.25 1.50 1.10; median 1.25  goal >= 1.25: met"),
                "pass-through goal\n" + table);
        assertTrue(
                table.contains("per round 0.75 0.85 0.90; median 0.85  goal >= 0.80: met"), "full-hot goal\n" + table);
        // the two-thread full proxy: 0.90 0.75 0.70, median 0.75
        assertTrue(
                table.contains(
                        "full 2 threads / direct, hot     per round 0.90 0.75 0.70; median 0.75  goal >= 0.80: NOT met"),
                "full-hot goal with two I/O threads\n" + table);
        assertTrue(table.contains("3     locus-full-hot               90          900   1.50   0.950"), table);
    }

    @Test
    void table_saysWhenAGoalIsNotMet() {
        List<MemcaslapBench.Run> runs = new ArrayList<>();
        long[] tps = {100, 50, 55, 60, 100, 70, 75};
        for (int t = 0; t < MemcaslapBench.TARGETS.size(); t++) {
            runs.add(new MemcaslapBench.Run(
                    MemcaslapBench.TARGETS.get(t), 1, 10, tps[t] * 10, tps[t], "", 1.0, Double.NaN));
        }
        String table = MemcaslapBench.table(runs);
        assertTrue(table.contains("per round 1.10; median 1.10  goal >= 1.25: NOT met"), table);
        assertTrue(table.contains("per round 0.70; median 0.70  goal >= 0.80: NOT met"), table);
    }

    @Test
    void shown_isRelativeBelowTheWorkingDirectory() {
        java.nio.file.Path cwd = java.nio.file.Path.of("").toAbsolutePath();
        assertEquals(
                java.nio.file.Path.of("target", "x.txt"),
                MemcaslapBench.shown(cwd.resolve("target").resolve("x.txt")));
        java.nio.file.Path outside = cwd.getRoot().resolve("elsewhere-" + System.nanoTime());
        assertEquals(outside, MemcaslapBench.shown(outside));
    }

    @Test
    void hotReadConfig_isMemcaslapsFormat() {
        assertEquals(
                "key\n64 64 1\nvalue\n100 100 1\ncmd\n0 0.010\n1 0.990\n",
                MemcaslapBench.hotReadConfig(0.99, 100).replace(System.lineSeparator(), "\n"));
    }
}
