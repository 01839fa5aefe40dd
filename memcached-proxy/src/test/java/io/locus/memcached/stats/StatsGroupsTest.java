package io.locus.memcached.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsGroupsTest {
    private static Map<String, String> lines() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("locus_local_items", "3");
        m.put("locus_local:shop:bytes", "300");
        m.put("locus_local:shop:evictions", "1");
        m.put("locus_reissues", "2");
        m.put("locus_tenant:shop:requests", "10");
        m.put("locus_tenant:shop:deadlines_met", "6");
        m.put("locus_tenant:shop:deadlines_missed", "2");
        m.put("locus_tenant:shop:queue_depth", "1");
        m.put("locus_tenant:a.b-c:requests", "5");
        m.put("locus_tenant:a.b-c:deadlines_met", "2");
        m.put("locus_tenant:a.b-c:queue_depth", "4");
        return m;
    }

    @Test
    void tenants_dropPrefixes_andNameLocalLines() {
        Map<String, String> t = StatsGroups.tenants(lines());
        assertEquals(
                List.of(
                        "shop:requests",
                        "shop:deadlines_met",
                        "shop:deadlines_missed",
                        "shop:queue_depth",
                        "a.b-c:requests",
                        "a.b-c:deadlines_met",
                        "a.b-c:queue_depth",
                        "shop:local_bytes",
                        "shop:local_evictions"),
                List.copyOf(t.keySet()));
        assertEquals("300", t.get("shop:local_bytes"));
    }

    @Test
    void deadline_sumsOverTenants() {
        Map<String, String> d = StatsGroups.deadline(lines());
        assertEquals("15", d.get("requests"));
        assertEquals("8", d.get("deadlines_met"));
        assertEquals("2", d.get("deadlines_missed"));
        assertEquals("80.0", d.get("deadlines_met_percent"));
        assertEquals("5", d.get("queue_depth"));
        assertEquals("3", d.get("local_items"));
        assertEquals("2", d.get("reissues"));
        assertEquals(null, d.get("local:shop:bytes"));
    }

    @Test
    void deadline_withoutHardRequests_isHundredPercent() {
        assertEquals("100.0", StatsGroups.deadline(Map.of()).get("deadlines_met_percent"));
    }
}
