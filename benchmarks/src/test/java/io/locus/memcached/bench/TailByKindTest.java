package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class TailByKindTest {
    @Test
    void splitsTheTailByReplyKind_acrossTenants() {
        OpStats gold = new OpStats();
        for (int i = 0; i < 99; i++) {
            gold.recordGet(1_000_000, OpStats.Reply.HIT, DeadlineRange.R1, 2_000_000);
        }
        gold.recordGet(80_000_000, OpStats.Reply.HIT, DeadlineRange.R1, 2_000_000);
        OpStats bronze = new OpStats();
        for (int i = 0; i < 10; i++) {
            bronze.recordGet(50_000, OpStats.Reply.REJECTED, DeadlineRange.R2, 6_500_000);
        }
        bronze.recordSet(3_000_000, OpStats.Reply.STORED);
        RowResult row = new RowResult(
                "locus-dlc-dls",
                "locus",
                new LoadGenerator.Result(List.of(gold, new OpStats(), bronze), 1),
                Double.NaN,
                null);
        OpStats total = row.result().total();
        assertEquals(100, total.count(OpStats.Kind.HIT));
        assertEquals(10, total.count(OpStats.Kind.REFUSED));
        assertEquals(0, total.count(OpStats.Kind.OTHER_GET));
        assertEquals(1, total.count(OpStats.Kind.SET));
        assertEquals(1.0, total.latencyMillis(OpStats.Kind.HIT, 99), 0.05);
        assertEquals(80.0, total.latencyMillis(OpStats.Kind.HIT, 100), 1.0);
        assertEquals(
                List.of(
                        "# p99 by reply kind, locus-dlc-dls: hits 1.0 ms (100); refusals 0.1 ms (10); sets 3.0 ms (1);"),
                ProxyBench.tailByKind(List.of(row)));
    }
}
