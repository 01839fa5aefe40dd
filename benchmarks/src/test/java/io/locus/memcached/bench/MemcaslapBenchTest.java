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
        assertEquals(new MemcaslapBench.Run("direct", 2, 3.0, 403_474, 134_425, "set 0.10 get 0.90"), r);
        assertNull(MemcaslapBench.parse("connect failed\n", "direct", 1), "no result line, no run");
    }

    @Test
    void table_givesMediansAndRatiosToDirectAndTwemproxy() {
        List<MemcaslapBench.Run> runs = new ArrayList<>();
        long[][] tps = {{100, 40, 50, 60}, {90, 40, 60, 70}, {110, 50, 55, 65}};
        for (int round = 0; round < tps.length; round++) {
            for (int t = 0; t < 4; t++) {
                runs.add(new MemcaslapBench.Run(
                        MemcaslapBench.TARGETS.get(t), round + 1, 10, tps[round][t] * 10, tps[round][t], ""));
            }
        }
        String table = MemcaslapBench.table(runs);
        // medians: direct 100, twemproxy 40, pass-through 55, full 65
        assertTrue(table.contains("locus-pass-through           55      0.55      1.38  1.25 1.50 1.10"), table);
        assertTrue(table.contains("locus-full                   65      0.65      1.63  1.50 1.75 1.30"), table);
    }
}
