package io.locus.bench.cast;

import io.locus.hdfs.cast.io.SwimTraces;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.PaperWorkloads;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.nio.file.Path;

/** The workloads the CAST benchmarks run on, by {@code @Param} name. */
final class CastWorkloads {
    static final String TABLE_44 = "table-4.4";
    static final String SWIM_1000 = "swim-1000";

    private CastWorkloads() {}

    /**
     * {@code table-4.4}: the 100-job workload of Table 4.4 (as in {@code hdfs-tiering-policy/examples/table-4.4.yaml});
     * {@code swim-1000}: the first 1,000 jobs of the FB-2010 SWIM trace under {@code locus.data.dir} (default
     * {@code data}, the repository's, when run from its root), as {@code ./locus bench cast} reads them.
     */
    static Workload named(String name) {
        TierCatalog tiers = TierCatalog.paper();
        return switch (name) {
            case TABLE_44 -> PaperWorkloads.table44(Cluster.DEFAULT, tiers);
            case SWIM_1000 ->
                SwimTraces.read(
                        Path.of(System.getProperty("locus.data.dir", "data"))
                                .resolve("swim/FB-2010_samples_24_times_1hr_withInputPaths_0.tsv"),
                        Cluster.DEFAULT,
                        tiers,
                        1_000);
            default ->
                throw new IllegalArgumentException(
                        "workload " + name + " (expected: " + TABLE_44 + " or " + SWIM_1000 + ")");
        };
    }
}
