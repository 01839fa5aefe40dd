package io.locus.hdfs.cast.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SWIM traces in the repository's data/swim become workloads. */
class SwimTracesTest {
    static Path swim(String file) {
        return Path.of(System.getProperty("locus.data.dir", "../data"), "swim", file);
    }

    static final String FB2009 = "FB-2009_samples_24_times_1hr_0.tsv";
    static final String FB2010 = "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv";

    @Test
    void fb2009_everyJob_withItsSizes() {
        Workload w = SwimTraces.read(swim(FB2009), Cluster.DEFAULT, TierCatalog.paper(), 0);
        assertEquals(5_894, w.jobs().size());
        Job j0 = w.jobs().get(0); // job0  49  49  740773  2339561  627471
        assertEquals("job0", j0.id());
        assertEquals(740_773 / 1073741824.0, j0.inputGb(), 1e-15);
        assertEquals(2_339_561 / 1073741824.0, j0.interGb(), 1e-15);
        assertEquals(627_471 / 1073741824.0, j0.outputGb(), 1e-15);
        assertEquals(1, j0.maps());
        assertEquals("Sort", j0.profile().name());
        assertEquals("Join", w.jobs().get(1).profile().name());
        assertTrue(w.jobs().stream().allMatch(j -> j.dataset() == null), "FB-2009 has no input paths");
    }

    @Test
    void fb2010_inputPathsReadByMoreThanOneJob_areReuseGroups() {
        Workload w = SwimTraces.read(swim(FB2010), Cluster.DEFAULT, TierCatalog.paper(), 0);
        assertEquals(25_428, w.jobs().size());
        long shared = w.jobs().stream().filter(j -> j.dataset() != null).count();
        int groups = w.groups(true).size() - (int) (w.jobs().size() - shared);
        assertTrue(shared > 0 && groups > 0 && groups < shared, shared + " jobs in " + groups + " groups");
        // 17,158 distinct input paths: jobs minus paths read more than once is at most the shared jobs.
        assertEquals(17_158, groups + (w.jobs().size() - shared));
    }

    @Test
    void fb2010_asAWorkloadFile_readsBack(@TempDir Path dir) {
        Workload w = SwimTraces.read(swim(FB2010), Cluster.DEFAULT, TierCatalog.paper(), 0);
        Path file = dir.resolve("fb2010.yaml");
        WorkloadFiles.write(w, file);
        assertEquals(w.jobs(), WorkloadFiles.read(file, TierCatalog.paper()).jobs());
    }

    @Test
    void limit_readsTheFirstJobs() {
        Workload w = SwimTraces.read(swim(FB2010), Cluster.DEFAULT, TierCatalog.paper(), 100);
        assertEquals(100, w.jobs().size());
        assertEquals("job99", w.jobs().get(99).id());
        assertNull(w.jobs().get(0).dataset());
    }

    @Test
    void badTraceLine_namesFileLineAndColumn(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("t.tsv");
        Files.writeString(p, "job0\t1\t1\t100\t0\t0\njob1\t2\t1\tten\t0\t0\n");
        InputException e =
                assertThrows(InputException.class, () -> SwimTraces.read(p, Cluster.DEFAULT, TierCatalog.paper(), 0));
        assertEquals("line 2 column 4", e.key(), e.getMessage());
        assertEquals("\"ten\"", e.value());
        assertTrue(e.getMessage().startsWith(p.toString()), e.getMessage());
    }
}
