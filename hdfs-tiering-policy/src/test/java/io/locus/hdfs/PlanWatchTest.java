package io.locus.hdfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** The plan watch on a local file, polled by hand (the background period is an hour). */
class PlanWatchTest {
    private static final String PLAN = CastBlockPlacementPolicyIT.plan("ephSSD");

    private static PlanWatch watch(Path file) {
        return new PlanWatch(file.toString(), new Configuration(false), "/cast", 3_600_000, new CastPlacementMetrics());
    }

    @Test
    void missingFile_isOneError_untilItAppears_thenItIsLoaded() throws Exception {
        Path file =
                Files.createDirectories(Path.of("target", "plan-watch-test")).resolve("missing.json");
        Files.deleteIfExists(file);
        try (PlanWatch w = watch(file)) {
            assertEquals(1, w.errors());
            w.check();
            w.check();
            assertEquals(1, w.errors(), "a missing file is reported once, not every period");
            assertNull(w.map().groupOf("/cast/sort/x"));

            Files.writeString(file, PLAN);
            w.check();
            assertEquals("eph", w.map().groupOf("/cast/sort/x"));
            assertEquals(1, w.errors());
        }
    }

    @Test
    void changedFile_isReloaded_unchangedFileIsNotReread_andACorruptOneFallsBackOnce() throws Exception {
        Path file =
                Files.createDirectories(Path.of("target", "plan-watch-test")).resolve("plan.json");
        Files.writeString(file, PLAN);
        try (PlanWatch w = watch(file)) {
            assertEquals("eph", w.map().groupOf("/cast/sort/x"));
            PlacementMap loaded = w.map();
            w.check();
            assertTrue(loaded == w.map(), "an unchanged file is not parsed again");

            Files.writeString(file, CastBlockPlacementPolicyIT.plan("persSSD"));
            Files.setLastModifiedTime(
                    file, FileTime.fromMillis(Files.getLastModifiedTime(file).toMillis() + 2000));
            w.check();
            assertEquals("pers", w.map().groupOf("/cast/sort/x"));

            Files.writeString(file, "{\"schema\": \"locus-cast-plan/1\", \"tiers\": [");
            w.check();
            assertNull(w.map().groupOf("/cast/sort/x"));
            assertEquals(1, w.errors());
            assertFalse(w.reload());
            assertEquals(1, w.errors(), "the same problem is logged once");
        }
    }
}
