package io.locus.memcached.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    /** The client writes every gauge as a double: {@code 12.0} for the {@code stats} line {@code 12}. */
    @Test
    void rendersNumbersWithTenantLabels_andLeavesOutTheRest() {
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put("version", "1.6.0");
        lines.put("cmd_get", "12");
        lines.put("locus_tenant:shop:hits", "3");
        lines.put("locus_tenant:web:hits", "4");
        lines.put("locus_local:a\"b:bytes", "99");
        lines.put("lb:backend:0:ops", "5.5");
        String text = new String(PrometheusText.render(lines), StandardCharsets.UTF_8);
        assertTrue(text.contains("locus_memcached_cmd_get 12.0\n"), text);
        assertTrue(text.contains("locus_memcached_tenant_hits{tenant=\"shop\"} 3.0\n"), text);
        assertTrue(text.contains("locus_memcached_tenant_hits{tenant=\"web\"} 4.0\n"), text);
        assertTrue(text.contains("locus_memcached_local_bytes{tenant=\"a\\\"b\"} 99.0\n"), text);
        assertFalse(text.contains("1.6.0"), text);
        assertFalse(text.contains("backend"), text);
    }

    /** Per-level lines carry a {@code level} label, not a {@code tenant} one. */
    @Test
    void rendersServiceLevelLinesWithALevelLabel() {
        Map<String, String> lines = new LinkedHashMap<>();
        lines.put("locus_level:silver:kappa_level", "1.375");
        lines.put("locus_level:gold:lower_load", "7");
        String text = new String(PrometheusText.render(lines), StandardCharsets.UTF_8);
        assertTrue(text.contains("locus_memcached_level_kappa_level{level=\"silver\"} 1.375\n"), text);
        assertTrue(text.contains("locus_memcached_level_lower_load{level=\"gold\"} 7.0\n"), text);
    }

    @Test
    void table_rendersEachGroupInOrder_andOneGroupAlone() {
        StatsTable table = new StatsTable();
        table.add(StatsTable.GENERAL, () -> Map.of("cmd_get", "1"));
        table.add(StatsTable.LB, () -> Map.of("lb:epoch", "7"));
        table.add(StatsTable.DEADLINE, () -> Map.of("locus_reissues", "2"));
        assertEquals(
                List.of("cmd_get", "lb:epoch", "locus_reissues"),
                List.copyOf(table.all().keySet()));
        assertEquals(Map.of("lb:epoch", "7"), table.group(StatsTable.LB));
        assertTrue(table.group("nothing").isEmpty());
    }
}
