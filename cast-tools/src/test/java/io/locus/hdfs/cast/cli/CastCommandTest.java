package io.locus.hdfs.cast.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.cast.io.PlanFiles;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CastCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        return CastCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    @Test
    void plan_json_writesAValidPlan_andComparesWithEveryBaseline() throws Exception {
        Path plan = dir.resolve("plan.json");
        int rc = run(
                "plan",
                "--workload",
                "examples/workload.yaml",
                "--tiers",
                "examples/tiers-paper.yaml",
                "--solver",
                "sa",
                "--evaluations",
                "2000",
                "--out",
                plan.toString(),
                "--json");
        assertEquals(0, rc, err.toString());
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertEquals("sa", json.get("solver").asText());
        assertEquals(6, json.get("jobs").asInt());
        assertEquals(4, json.get("tiers").size());
        assertEquals(1 + 4 + 3, json.get("comparison").size(), "the plan, 4 single tiers, 3 greedy plans");
        double utility = json.get("predicted").get("utility").asDouble();
        for (JsonNode row : json.get("comparison")) {
            assertTrue(utility >= row.get("utility").asDouble() - 1e-12, row.toString());
        }
        assertEquals(1, json.get("workflows").size());
        CastPlan read = PlanFiles.read(plan);
        assertEquals(6, read.jobs().size());
        assertEquals(utility, read.predicted().utility(), 1e-15);
    }

    @Test
    void plan_text_showsTheTierTableAndTheComparison() {
        int rc = run(
                "plan",
                "--workload",
                "examples/workload.json",
                "--solver",
                "greedy-over-provisioned",
                "--out",
                dir.resolve("p.yaml").toString());
        assertEquals(0, rc, err.toString());
        String text = out.toString();
        assertTrue(
                text.contains("CAPACITY_GB") && text.contains("persSSD 100%") && text.contains("greedy-exact-fit"),
                text);
        assertTrue(Files.exists(dir.resolve("p.yaml")));
    }

    @Test
    void plan_deadlineCost_meetsTheExampleWorkflowsDeadline() throws Exception {
        int rc = run(
                "plan",
                "--workload",
                "examples/workload.yaml",
                "--solver",
                "optaplanner",
                "--objective",
                "deadline-cost",
                "--evaluations",
                "2000",
                "--out",
                dir.resolve("p.json").toString(),
                "--json");
        assertEquals(0, rc, err.toString());
        JsonNode flows = new ObjectMapper().readTree(out.toString()).get("workflows");
        assertTrue(flows.get(0).get("meetsDeadline").asBoolean(), flows.toString());
    }

    @Test
    void report_comparesEveryConfiguration_andDrawsTheChart() throws Exception {
        Path plan = dir.resolve("plan.json");
        assertEquals(
                0,
                run(
                        "plan",
                        "--workload",
                        "examples/workload.yaml",
                        "--solver",
                        "sa",
                        "--evaluations",
                        "1000",
                        "--out",
                        plan.toString()),
                err.toString());
        out.getBuffer().setLength(0);
        Path png = dir.resolve("chart.png");
        assertEquals(
                0,
                run(
                        "report",
                        "--plan",
                        plan.toString(),
                        "--workload",
                        "examples/workload.yaml",
                        "--png",
                        png.toString(),
                        "--json"),
                err.toString());
        JsonNode json = new ObjectMapper().readTree(out.toString());
        assertEquals(1 + 4 + 3, json.get("configurations").size());
        assertTrue(Files.size(png) > 1000, "a PNG was written");
        assertEquals(2, run("report", "--plan", plan.toString(), "--png", png.toString()), "--png without --workload");
    }

    @Test
    void unknownSolver_isACommandLineError() {
        int rc = run(
                "plan",
                "--workload",
                "examples/workload.yaml",
                "--solver",
                "tabu",
                "--out",
                dir.resolve("p.json").toString());
        assertEquals(2, rc);
        assertTrue(err.toString().contains("unknown solver 'tabu'"), err.toString());
        assertFalse(Files.exists(dir.resolve("p.json")));
    }

    @Test
    void badWorkloadFile_exits2_namingFileKeyValue_andWritesNoPlan() throws Exception {
        Path bad = dir.resolve("w.yaml");
        Files.writeString(bad, "schema: locus-cast-workload/1\njobs:\n  - {id: a, app: Sort, inputGb: -1}\n");
        int rc = run(
                "plan",
                "--workload",
                bad.toString(),
                "--out",
                dir.resolve("p.json").toString());
        assertEquals(2, rc);
        assertTrue(err.toString().contains(bad + ": jobs[0].inputGb: got -1"), err.toString());
        assertFalse(Files.exists(dir.resolve("p.json")));
    }

    @Test
    void convertSwim_writesAWorkloadThePlannerReads() throws Exception {
        Path trace = Path.of(
                System.getProperty("locus.data.dir", "../data"),
                "swim",
                "FB-2010_samples_24_times_1hr_withInputPaths_0.tsv");
        Path w = dir.resolve("fb.yaml");
        assertEquals(
                0,
                run("convert-swim", "--trace", trace.toString(), "--limit", "200", "--out", w.toString(), "--json"),
                err.toString());
        assertEquals(
                200, new ObjectMapper().readTree(out.toString()).get("jobs").asInt());
        out.getBuffer().setLength(0);
        assertEquals(
                0,
                run(
                        "plan",
                        "--workload",
                        w.toString(),
                        "--solver",
                        "greedy",
                        "--out",
                        dir.resolve("p.json").toString()),
                err.toString());
    }
}
