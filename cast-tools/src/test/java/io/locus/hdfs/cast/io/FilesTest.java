package io.locus.hdfs.cast.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.PaperWorkloads;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The example files read; files round-trip; every kind of bad file gets an error naming file, key, value, expected. */
class FilesTest {
    private static final Path EXAMPLES = Path.of("examples");

    @TempDir
    Path dir;

    @Test
    void exampleTiers_areThePaperCatalogue() {
        TierCatalog read = TierFiles.read(EXAMPLES.resolve("tiers-paper.yaml"));
        TierCatalog paper = TierCatalog.paper();
        assertEquals(paper.names(), read.names());
        for (int t = 0; t < paper.size(); t++) {
            Tier a = paper.get(t);
            Tier b = read.get(t);
            assertEquals(a.storageType(), b.storageType(), a.name());
            assertEquals(a.pricePerGbMonth(), b.pricePerGbMonth(), 1e-12, a.name());
            assertArrayEquals(a.levels(), b.levels(), 1e-12, a.name());
            for (double gb : new double[] {50, 100, 300, 375, 800, 2000}) {
                assertEquals(a.bandwidthAt(gb), b.bandwidthAt(gb), 1e-9, a.name() + " at " + gb);
            }
            assertEquals(a.persistent(), b.persistent());
            assertEquals(a.elastic(), b.elastic());
            assertEquals(a.maxPerVmGb(), b.maxPerVmGb());
            assertEquals(a.perFileOverheadSec(), b.perFileOverheadSec());
        }
    }

    @Test
    void exampleWorkloads_read() {
        Workload yaml = WorkloadFiles.read(EXAMPLES.resolve("workload.yaml"), TierCatalog.paper());
        assertEquals(6, yaml.jobs().size());
        assertEquals(1, yaml.workflows().size());
        Job sort = yaml.jobs().get(0);
        assertEquals(750, sort.inputGb());
        assertEquals(750, sort.interGb(), "Sort's intermediate follows its ratio 1.0");
        assertEquals(3000, sort.maps(), "750 GB in 256 MB splits");
        assertEquals("clicks", sort.dataset());
        assertEquals("Etl", yaml.jobs().get(4).profile().name());
        assertEquals(5, yaml.groups(true).size(), "one group for the shared dataset, four single jobs");
        Workload json = WorkloadFiles.read(EXAMPLES.resolve("workload.json"), TierCatalog.paper());
        assertEquals(4, json.jobs().size());
        assertEquals(Cluster.DEFAULT, json.cluster());
    }

    @Test
    void workloadAndTiers_roundTrip_inYamlAndJson() {
        Workload w = PaperWorkloads.workflows(Cluster.DEFAULT, TierCatalog.paper(), "persSSD", 1.3);
        for (String name : new String[] {"w.yaml", "w.json"}) {
            Path p = dir.resolve(name);
            WorkloadFiles.write(w, p);
            Workload back = WorkloadFiles.read(p, TierCatalog.paper());
            assertEquals(w.jobs(), back.jobs(), name);
            assertEquals(w.workflows(), back.workflows(), name);
            assertEquals(w.cluster(), back.cluster(), name);
            Path t = dir.resolve("t-" + name);
            TierFiles.write(TierCatalog.paper(), t);
            assertEquals(TierCatalog.paper().names(), TierFiles.read(t).names());
        }
    }

    @Test
    void plan_roundTrips() {
        CastPlan plan = new CastPlan(
                "w",
                "sa",
                "utility",
                42,
                java.util.List.of(new CastPlan.PlannedTier("persSSD", "DISK", null, 200, 5000)),
                java.util.List.of(
                        new CastPlan.PlannedJob("a", "persSSD", "d1"), new CastPlan.PlannedJob("b", "persSSD", null)),
                new CastPlan.Prediction(12.5, 4.2, 0.3, 0.017));
        Path p = dir.resolve("plan.json");
        PlanFiles.write(plan, p);
        assertEquals(plan, PlanFiles.read(p));
        assertNull(PlanFiles.read(p).jobs().get(1).dataset());
    }

    @Test
    void aPlanTheCliWrites_isTheSamePlanForTheNameNodesReader() throws IOException {
        CastPlan plan = new CastPlan(
                "w",
                "optaplanner",
                "deadline-cost",
                7,
                java.util.List.of(
                        new CastPlan.PlannedTier("ephSSD", "SSD", "eph", 375, 750),
                        new CastPlan.PlannedTier("objStore", "ARCHIVE", null, 0, 1000)),
                java.util.List.of(
                        new CastPlan.PlannedJob("sort", "ephSSD", "logs"),
                        new CastPlan.PlannedJob("grep", "objStore", null)),
                new CastPlan.Prediction(30.25, 10.5, 2.75, 0.0029));
        Path p = dir.resolve("for-namenode.json");
        PlanFiles.write(plan, p);
        assertEquals(plan, CastPlan.parseJson(Files.readString(p)));
    }

    private InputException bad(String name, String text, java.util.function.Consumer<Path> reader) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return assertThrows(InputException.class, () -> reader.accept(p));
    }

    private InputException badWorkload(String jobsYaml) throws IOException {
        return bad(
                "bad.yaml",
                "schema: locus-cast-workload/1\njobs:\n" + jobsYaml,
                p -> WorkloadFiles.read(p, TierCatalog.paper()));
    }

    private static void names(InputException e, String file, String key, String value, String expected) {
        assertTrue(e.file().endsWith(file), e.getMessage());
        assertEquals(key, e.key(), e.getMessage());
        assertEquals(value, e.value(), e.getMessage());
        assertTrue(e.expected().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains(file) && e.getMessage().contains(key), e.getMessage());
    }

    @Test
    void badWorkload_negativeSize() throws IOException {
        names(badWorkload("  - {id: a, app: Sort, inputGb: -5}\n"), "bad.yaml", "jobs[0].inputGb", "-5", "number in");
    }

    @Test
    void badWorkload_textForANumber() throws IOException {
        names(
                badWorkload("  - {id: a, app: Sort, inputGb: lots}\n"),
                "bad.yaml",
                "jobs[0].inputGb",
                "\"lots\"",
                "number");
    }

    @Test
    void badWorkload_missingKey() throws IOException {
        names(badWorkload("  - {id: a, app: Sort}\n"), "bad.yaml", "jobs[0].inputGb", "nothing", "required");
    }

    @Test
    void badWorkload_unknownKey_isAMisspellingNotIgnored() throws IOException {
        names(badWorkload("  - {id: a, app: Sort, inputGB: 5}\n"), "bad.yaml", "jobs[0].inputGB", "5", "inputGb");
    }

    @Test
    void badWorkload_unknownApplication() throws IOException {
        names(
                badWorkload("  - {id: a, app: Wordcount, inputGb: 5}\n"),
                "bad.yaml",
                "jobs[0].app",
                "\"Wordcount\"",
                "KMeans");
    }

    @Test
    void badWorkload_duplicateJob() throws IOException {
        InputException e = badWorkload("  - {id: a, app: Sort, inputGb: 5}\n  - {id: a, app: Grep, inputGb: 5}\n");
        names(e, "bad.yaml", "jobs[1].id", "\"a\"", "no other job");
    }

    @Test
    void badWorkload_workflowNamesAnUnknownJob() throws IOException {
        InputException e = badWorkload(
                "  - {id: a, app: Sort, inputGb: 5}\nworkflows:\n  - {id: w, deadlineMin: 10, jobs: [a, b]}\n");
        names(e, "bad.yaml", "workflows[0].jobs[1]", "\"b\"", "job in this workload");
    }

    @Test
    void badWorkload_workflowCycle() throws IOException {
        InputException e = badWorkload("  - {id: a, app: Sort, inputGb: 5}\n  - {id: b, app: Sort, inputGb: 5}\n"
                + "workflows:\n  - {id: w, deadlineMin: 10, jobs: [a, b], parents: {a: [b]}}\n");
        assertEquals("workflows[0].parents", e.key(), e.getMessage());
        assertTrue(e.expected().contains("parents listed first"), e.getMessage());
    }

    @Test
    void badWorkload_wrongSchemaVersion() throws IOException {
        InputException e = bad(
                "v2.yaml",
                "schema: locus-cast-workload/2\njobs: []\n",
                p -> WorkloadFiles.read(p, TierCatalog.paper()));
        names(e, "v2.yaml", "schema", "\"locus-cast-workload/2\"", "locus-cast-workload/1");
    }

    @Test
    void badWorkload_aTiersFileGivenAsWorkload() throws IOException {
        InputException e = assertThrows(
                InputException.class,
                () -> WorkloadFiles.read(EXAMPLES.resolve("tiers-paper.yaml"), TierCatalog.paper()));
        names(e, "tiers-paper.yaml", "schema", "\"locus-cast-tiers/1\"", "locus-cast-workload/1");
    }

    @Test
    void badFile_syntaxErrorsNameTheFile() throws IOException {
        InputException yaml =
                bad("broken.yaml", "schema: [unclosed\n", p -> WorkloadFiles.read(p, TierCatalog.paper()));
        assertTrue(yaml.getMessage().startsWith(dir.resolve("broken.yaml") + ": not valid YAML"), yaml.getMessage());
        InputException json = bad("broken.json", "{\"schema\": ", p -> WorkloadFiles.read(p, TierCatalog.paper()));
        assertTrue(json.getMessage().startsWith(dir.resolve("broken.json") + ": not valid JSON"), json.getMessage());
        InputException dup = bad(
                "dup.yaml",
                "schema: locus-cast-workload/1\nschema: locus-cast-workload/1\n",
                p -> WorkloadFiles.read(p, TierCatalog.paper()));
        assertTrue(dup.getMessage().contains("duplicate key"), dup.getMessage());
    }

    @Test
    void badTiers_unknownStorageType_andDanglingBackingTier() throws IOException {
        InputException type = bad(
                "t.yaml",
                "schema: locus-cast-tiers/1\ntiers:\n  - {name: fast, storageType: FLASH, pricePerGbMonth: 1, throughputMBps: 5}\n",
                TierFiles::read);
        names(type, "t.yaml", "tiers[0].storageType", "\"FLASH\"", "ARCHIVE");
        InputException backing = bad(
                "t2.yaml",
                "schema: locus-cast-tiers/1\ntiers:\n  - {name: eph, storageType: SSD, pricePerGbMonth: 1,"
                        + " throughputMBps: 5, persistent: false, backingTier: s3}\n",
                TierFiles::read);
        names(backing, "t2.yaml", "tiers[0].backingTier", "\"s3\"", "[eph]");
        InputException both = bad(
                "t3.yaml",
                "schema: locus-cast-tiers/1\ntiers:\n  - {name: x, storageType: SSD, pricePerGbMonth: 1,"
                        + " throughputMBps: 5, throughputCurve: [[1, 2]]}\n",
                TierFiles::read);
        names(both, "t3.yaml", "tiers[0].throughputCurve", "[[1, 2]]", "exactly one of");
    }

    @Test
    void badPlan_jobOnATierThePlanDoesNotProvision() throws IOException {
        InputException e = bad(
                "plan.json",
                "{\"schema\": \"locus-cast-plan/1\", \"workload\": \"w\", \"solver\": \"sa\", \"objective\": \"utility\","
                        + " \"seed\": 1, \"predicted\": {\"runtimeMin\": 1, \"vmCost\": 1, \"storeCost\": 1,"
                        + " \"utility\": 1}, \"tiers\": [{\"name\": \"persSSD\", \"storageType\": \"DISK\","
                        + " \"perVmGb\": 100, \"capacityGb\": 2500}], \"jobs\": [{\"id\": \"a\", \"tier\": \"ephSSD\"}]}",
                PlanFiles::read);
        names(e, "plan.json", "jobs[0].tier", "\"ephSSD\"", "[persSSD]");
    }
}
