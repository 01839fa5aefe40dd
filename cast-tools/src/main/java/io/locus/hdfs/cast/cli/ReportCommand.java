package io.locus.hdfs.cast.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.apply.PlacementCheck;
import io.locus.hdfs.cast.io.PlanFiles;
import io.locus.hdfs.cast.io.TierFiles;
import io.locus.hdfs.cast.io.WorkloadFiles;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import io.locus.hdfs.cast.solve.Planning;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-cast report}: a plan's predicted placement against the real one, and a chart per configuration. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        description = "Predicted vs actual placement of a plan (with --fs), and a PNG chart of cost and utility of the"
                + " plan against every single-tier configuration and the greedy plans (with --workload and --png).")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--plan", required = true, paramLabel = "FILE", description = "Plan file.")
    Path plan;

    @Option(
            names = "--fs",
            paramLabel = "URI",
            description = "The HDFS the plan was applied to: report where the blocks are.")
    URI fs;

    @Option(
            names = "--root",
            defaultValue = "/cast",
            paramLabel = "DIR",
            description = "HDFS directory of the planned data (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(
            names = "--workload",
            paramLabel = "FILE",
            description = "The plan's workload, for the per-configuration comparison.")
    Path workload;

    @Option(names = "--tiers", paramLabel = "FILE", description = "Tiers file (default: the built-in catalogue).")
    Path tiers;

    @Option(
            names = "--png",
            paramLabel = "FILE",
            description = "Write the cost and utility chart here (needs --workload).")
    Path png;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (png != null && workload == null) {
            throw new ParameterException(spec.commandLine(), "--png needs --workload (the configurations to compare)");
        }
        CastPlan p = PlanFiles.read(plan);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("plan", plan.toString());
        List<Map<String, Object>> predicted = new ArrayList<>();
        for (CastPlan.PlannedTier t : p.tiers()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("tier", t.name());
            row.put("storageType", t.storageType());
            row.put("dataNodeGroup", t.dataNodeGroup());
            row.put(
                    "jobs",
                    p.jobs().stream().filter(j -> j.tier().equals(t.name())).count());
            row.put("capacityGb", t.capacityGb());
            predicted.add(row);
        }
        out.put("predicted", predicted);
        if (fs != null) {
            Configuration conf = new Configuration();
            conf.set("fs.defaultFS", fs.toString());
            List<Map<String, Object>> actual = new ArrayList<>();
            try (FileSystem f = FileSystem.newInstance(fs, conf)) {
                if (!(f instanceof DistributedFileSystem dfs)) {
                    throw new ParameterException(spec.commandLine(), "--fs " + fs + " is not an HDFS");
                }
                for (PlacementCheck.TierPlacement t :
                        PlacementCheck.check(dfs, p, root).values()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("tier", t.tier());
                    row.put("files", t.files());
                    row.put("blocks", t.blocks());
                    row.put("onPlannedType", t.onPlannedType());
                    row.put("inPlannedGroup", t.inPlannedGroup());
                    row.put("plannedGroup", t.plannedGroup());
                    row.put("actualGroups", List.copyOf(t.actualGroups()));
                    actual.add(row);
                }
            }
            out.put("actual", actual);
        }
        if (workload != null) {
            Workload w = WorkloadFiles.read(workload, tiers == null ? TierCatalog.paper() : TierFiles.read(tiers));
            List<Map<String, Object>> configs = new ArrayList<>();
            configs.add(config(
                    "plan (" + p.solver() + ")",
                    p.predicted().runtimeMin(),
                    p.predicted().vmCost() + p.predicted().storeCost(),
                    p.predicted().utility()));
            for (Map.Entry<String, Evaluation> b : Planning.baselines(w, true).entrySet()) {
                configs.add(config(
                        b.getKey(),
                        b.getValue().runtimeMin(),
                        b.getValue().totalCost(),
                        b.getValue().utility()));
            }
            out.put("configurations", configs);
            if (png != null) {
                chart(configs, png);
                out.put("png", png.toString());
            }
        }
        PrintWriter pw = spec.commandLine().getOut();
        if (output.json) {
            pw.println(JsonOutput.pretty(out));
        } else {
            print(pw, out);
        }
        pw.flush();
        return 0;
    }

    private static Map<String, Object> config(String name, double t, double cost, double utility) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("configuration", name);
        m.put("runtimeMin", t);
        m.put("cost", cost);
        m.put("utility", utility);
        return m;
    }

    @SuppressWarnings("unchecked")
    private static void print(PrintWriter pw, Map<String, Object> out) {
        pw.printf("%-10s %-9s %-8s %6s %12s%n", "TIER", "TYPE", "GROUP", "JOBS", "CAPACITY_GB");
        for (Map<String, Object> r : (List<Map<String, Object>>) out.get("predicted")) {
            pw.printf(
                    "%-10s %-9s %-8s %6s %12.1f%n",
                    r.get("tier"),
                    r.get("storageType"),
                    r.get("dataNodeGroup") == null ? "-" : r.get("dataNodeGroup"),
                    r.get("jobs"),
                    r.get("capacityGb"));
        }
        if (out.containsKey("actual")) {
            pw.printf(
                    "%n%-10s %6s %7s %15s %8s %16s  %s%n",
                    "TIER", "FILES", "BLOCKS", "ON_PLANNED_TYPE", "GROUP", "IN_PLANNED_GROUP", "ACTUAL_GROUPS");
            for (Map<String, Object> r : (List<Map<String, Object>>) out.get("actual")) {
                List<String> actual = (List<String>) r.get("actualGroups");
                pw.printf(
                        "%-10s %6s %7s %15s %8s %16s  %s%n",
                        r.get("tier"),
                        r.get("files"),
                        r.get("blocks"),
                        r.get("onPlannedType"),
                        r.get("plannedGroup") == null ? "-" : r.get("plannedGroup"),
                        r.get("inPlannedGroup"),
                        actual.isEmpty() ? "-" : String.join(",", actual));
            }
        }
        if (out.containsKey("configurations")) {
            pw.printf("%n%-26s %9s %10s %12s%n", "CONFIGURATION", "T_MIN", "COST_$", "UTILITY");
            for (Map<String, Object> r : (List<Map<String, Object>>) out.get("configurations")) {
                pw.printf(
                        "%-26s %9.1f %10.2f %12.4g%n",
                        r.get("configuration"), r.get("runtimeMin"), r.get("cost"), r.get("utility"));
            }
        }
        if (out.containsKey("png")) {
            pw.printf("chart written to %s%n", out.get("png"));
        }
    }

    private static void chart(List<Map<String, Object>> configs, Path file) throws java.io.IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> labels = new ArrayList<>();
        List<Double> cost = new ArrayList<>();
        List<Double> utility = new ArrayList<>();
        double best = configs.stream()
                .mapToDouble(c -> (double) c.get("utility"))
                .max()
                .orElse(1);
        for (Map<String, Object> c : configs) {
            labels.add((String) c.get("configuration"));
            cost.add((double) c.get("cost"));
            utility.add((double) c.get("utility") / best);
        }
        CategoryChart costChart = new CategoryChartBuilder()
                .width(900)
                .height(400)
                .title("predicted cost")
                .xAxisTitle("configuration")
                .yAxisTitle("$")
                .build();
        costChart.addSeries("cost", labels, cost);
        CategoryChart utilChart = new CategoryChartBuilder()
                .width(900)
                .height(400)
                .title("predicted tenant utility (relative to the best)")
                .xAxisTitle("configuration")
                .yAxisTitle("utility / best")
                .build();
        utilChart.addSeries("utility", labels, utility);
        if (file.toAbsolutePath().getParent() != null) {
            java.nio.file.Files.createDirectories(file.toAbsolutePath().getParent());
        }
        String name = file.toString().replaceFirst("(?i)\\.png$", "");
        BitmapEncoder.saveBitmap(List.of(costChart, utilChart), 2, 1, name, BitmapEncoder.BitmapFormat.PNG);
    }
}
