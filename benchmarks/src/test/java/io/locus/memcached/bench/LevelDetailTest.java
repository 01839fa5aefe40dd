package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LevelDetailTest {
    @Test
    void line_showsEachLevelsSecondAsDifferences() {
        Map<String, String> before = new HashMap<>();
        before.put("locus_level:gold:offers", "100");
        before.put("locus_level:gold:lower_load", "10");
        Map<String, String> after = new HashMap<>(before);
        after.put("locus_level:gold:kappa_level", "1.000");
        after.put("locus_level:gold:offers", "300");
        after.put("locus_level:gold:lower_load", "30");
        after.put("locus_level:gold:idle_infeasible", "5");
        after.put("locus_level:silver:kappa_level", "1.375");
        assertEquals(
                "levels locus  3s: gold k=1.000 25/200 refused 12.5% (quota 0 idle 5 own 0 lower 20 other 0);"
                        + " silver k=1.375 0/0 refused 0.0% (quota 0 idle 0 own 0 lower 0 other 0);"
                        + " bronze k=- 0/0 refused 0.0% (quota 0 idle 0 own 0 lower 0 other 0);",
                LevelDetail.line("locus", 3, before, after));
    }
}
