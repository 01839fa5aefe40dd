package io.locus.hdfs.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.cli.CastCommand;
import io.locus.hdfs.cast.io.PlanFiles;
import io.locus.hdfs.fixture.TieredMiniCluster;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.QuotaByStorageTypeExceededException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * apply on a real HDFS (the fixture's default 4 DataNodes: {SSD, DISK} ×2, {DISK, ARCHIVE} ×2, replication 2): blocks
 * written before the plan move to their planned storage types; a second apply changes nothing; the SSD quota refuses
 * a write beyond the planned capacity.
 */
class PlanApplierIT {
    private static TieredMiniCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = TieredMiniCluster.builder().build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static final double MIB_IN_GB = 1.0 / 1024;

    @Test
    void profile_measuresEveryStorageType_andWritesATiersFileThePlannerReads() throws Exception {
        java.nio.file.Path tiers = java.nio.file.Path.of("target", "apply-it", "profiled.yaml");
        StringWriter out = new StringWriter();
        int rc = CastCommand.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "profile",
                "--fs",
                cluster.nameNodeUri().toString(),
                "--mb",
                "2",
                "--out",
                tiers.toString(),
                "--json");
        assertEquals(0, rc, out.toString());
        io.locus.hdfs.cast.model.TierCatalog catalog = io.locus.hdfs.cast.io.TierFiles.read(tiers);
        assertEquals(List.of("ssd", "disk", "archive"), catalog.names());
        for (io.locus.hdfs.cast.model.Tier t : catalog.all()) {
            assertTrue(t.bandwidthAt(100) > 0, t.name());
            assertTrue(t.capacityLimitGb() > 0, t.name());
        }
        assertFalse(cluster.fileSystem().exists(new Path("/tmp/locus-cast-profile")), "the scratch directory is gone");
    }

    @Test
    void apply_movesExistingBlocks_isIdempotent_andTheQuotaHolds() throws Exception {
        // Written before any plan: the default policy (HOT) puts them on DISK.
        cluster.writeFile(new Path("/cast/hot-job/input"), new byte[3 << 20]);
        cluster.writeFile(new Path("/cast/cold-job/input"), new byte[2 << 20]);
        CastPlan plan = new CastPlan(
                "it",
                "sa",
                "utility",
                1,
                List.of(
                        new CastPlan.PlannedTier("ephSSD", "SSD", null, 1, 8 * MIB_IN_GB),
                        new CastPlan.PlannedTier("persHDD", "ARCHIVE", null, 1, 16 * MIB_IN_GB)),
                List.of(
                        new CastPlan.PlannedJob("hot-job", "ephSSD", null),
                        new CastPlan.PlannedJob("cold-job", "persHDD", null)),
                new CastPlan.Prediction(1, 1, 1, 1));
        java.nio.file.Path file = java.nio.file.Path.of("target", "apply-it", "plan.json");
        PlanFiles.write(plan, file);
        String uri = cluster.nameNodeUri().toString();

        StringWriter out = new StringWriter();
        int dry = CastCommand.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "apply",
                "--plan",
                file.toString(),
                "--fs",
                uri,
                "--dry-run");
        assertEquals(0, dry, out.toString());
        assertTrue(out.toString().contains("would set-policy"), out.toString());
        assertEquals(
                List.of(StorageType.DISK, StorageType.DISK),
                cluster.storageTypesOf(new Path("/cast/hot-job/input")).get(0),
                "a dry run changes nothing");

        PlanApplier applier =
                new PlanApplier(cluster.fileSystem(), cluster.configuration(), "/cast", PlanApplier.DEFAULT_POLICIES);
        PlanApplier.Result r = applier.apply(plan, false, Duration.ofSeconds(120), (ok, total) -> {});
        assertEquals(5, r.blocks());
        assertEquals(5, r.blocksOnPlannedType(), r.toString());
        for (List<StorageType> replicas : cluster.storageTypesOf(new Path("/cast/hot-job/input"))) {
            assertEquals(List.of(StorageType.SSD, StorageType.SSD), replicas);
        }
        for (List<StorageType> replicas : cluster.storageTypesOf(new Path("/cast/cold-job/input"))) {
            assertEquals(List.of(StorageType.ARCHIVE, StorageType.ARCHIVE), replicas);
        }
        assertTrue(
                r.actions().stream()
                        .anyMatch(a -> a.kind().equals("move") && a.detail().contains("no Storage Policy Satisfier")),
                "the Mover ran, saying why not the satisfier: " + r);

        out.getBuffer().setLength(0);
        int again = CastCommand.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "apply",
                "--plan",
                file.toString(),
                "--fs",
                uri,
                "--json");
        assertEquals(0, again, out.toString());
        assertTrue(out.toString().contains("\"actions\" : [ ]"), "an applied plan changes nothing: " + out);

        out.getBuffer().setLength(0);
        assertEquals(
                0,
                CastCommand.run(
                        new PrintWriter(out, true),
                        new PrintWriter(new StringWriter(), true),
                        "report",
                        "--plan",
                        file.toString(),
                        "--fs",
                        uri,
                        "--json"));
        com.fasterxml.jackson.databind.JsonNode actual = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.toString())
                .get("actual");
        for (com.fasterxml.jackson.databind.JsonNode t : actual) {
            assertEquals(t.get("blocks").asLong(), t.get("onPlannedType").asLong(), t.toString());
            assertTrue(t.get("blocks").asLong() > 0, t.toString());
        }

        // 8 MiB of SSD planned, 6 MiB used (3 MiB x 2 replicas): 2 more MiB (4 MiB with replicas) must be refused.
        assertThrows(QuotaByStorageTypeExceededException.class, () -> {
            try (FSDataOutputStream s = cluster.fileSystem().create(new Path("/cast/hot-job/more"))) {
                s.write(new byte[2 << 20]);
            }
        });
        assertFalse(Files.exists(java.nio.file.Path.of("target", "apply-it", "nothing")));
    }
}
