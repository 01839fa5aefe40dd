package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlineReportTest {
    private static final List<TenantProfile> TENANTS = TenantProfile.defaults();

    private static RowResult row(String label, int hitsInTime, int late, int refused) {
        OpStats gold = new OpStats();
        for (int i = 0; i < hitsInTime; i++) {
            gold.recordGet(1_000_000, OpStats.Reply.HIT, DeadlineRange.R1, 2_000_000);
        }
        for (int i = 0; i < late; i++) {
            gold.recordGet(3_000_000, OpStats.Reply.HIT, DeadlineRange.R1, 2_000_000);
        }
        for (int i = 0; i < refused; i++) {
            gold.recordGet(10_000, OpStats.Reply.REJECTED, DeadlineRange.R1, 2_000_000);
        }
        gold.recordGet(9_000_000, OpStats.Reply.HIT, DeadlineRange.BEST_EFFORT, -1);
        return new RowResult(
                label,
                label,
                new LoadGenerator.Result(List.of(gold, new OpStats(), new OpStats()), 1),
                Double.NaN,
                null);
    }

    @Test
    void tightestTenantIsGold() {
        assertEquals(0, DeadlineReport.tightestTenant(TENANTS));
    }

    @Test
    void countsRefusalsAsMissed_butNotAsAdmitted() {
        List<String> lines =
                DeadlineReport.lines(List.of(row("direct", 40, 60, 0), row("locus-dlc-dls", 57, 3, 40)), TENANTS);
        assertTrue(lines.get(0).contains("tightest tenant gold"), lines.get(0));
        // direct: 100 with a deadline, 60 late, missed 60 %; admitted met 40 %.
        assertTrue(
                lines.get(2).matches("#\\s+direct\\s+100\\s+0\\s+60\\s+60\\s+60.0%\\s+40.0%\\s+\\+0.0%"), lines.get(2));
        // locus: 40 refused + 3 late = 43 missed (43 %, -28.3 % vs 60 %); admitted 60, met 57 = 95 %.
        assertTrue(
                lines.get(3).matches("#\\s+locus-dlc-dls\\s+100\\s+40\\s+3\\s+43\\s+43.0%\\s+95.0%\\s+-28.3%"),
                lines.get(3));
    }
}
