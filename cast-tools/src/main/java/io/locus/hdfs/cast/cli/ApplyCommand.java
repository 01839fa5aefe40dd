package io.locus.hdfs.cast.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import io.locus.hdfs.CastPlan;
import io.locus.hdfs.apply.PlanApplier;
import io.locus.hdfs.cast.io.PlanFiles;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-cast apply}: carry a plan out on HDFS and wait until every block is on its planned storage type. */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        description = "Create the plan's job and dataset directories under the root, set their storage policies and the"
                + " root's per-storage-type quotas, move existing blocks with the Storage Policy Satisfier where the cluster"
                + " runs one (else the Mover), and wait until every block is on"
                + " its planned storage type. Re-running it on an applied plan changes nothing.")
final class ApplyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--plan", required = true, paramLabel = "FILE", description = "Plan file (validated first).")
    Path plan;

    @Option(names = "--fs", required = true, paramLabel = "URI", description = "The HDFS, e.g. hdfs://namenode:8020.")
    URI fs;

    @Option(
            names = "--root",
            defaultValue = "/cast",
            paramLabel = "DIR",
            description = "HDFS directory of the planned data (default: ${DEFAULT-VALUE}).")
    String root;

    @Option(
            names = "--policy",
            paramLabel = "TYPE=POLICY",
            description =
                    "Storage policy for a storage type, overriding the default SSD=ALL_SSD, DISK=HOT, ARCHIVE=COLD.")
    Map<String, String> policy = new LinkedHashMap<>();

    @Option(names = "--dry-run", description = "Print what would change; change nothing.")
    boolean dryRun;

    @Option(
            names = "--wait-seconds",
            defaultValue = "600",
            paramLabel = "S",
            description = "How long to wait for blocks to reach their storage types (default: ${DEFAULT-VALUE}).")
    long waitSeconds;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (!"hdfs".equals(fs.getScheme())) {
            throw new ParameterException(spec.commandLine(), "--fs " + fs + " (expected: hdfs://HOST:PORT)");
        }
        CastPlan p = PlanFiles.read(plan);
        Map<String, String> policies = new LinkedHashMap<>(PlanApplier.DEFAULT_POLICIES);
        policies.putAll(policy);
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", fs.toString());
        PlanApplier.Result r;
        try (FileSystem f = FileSystem.newInstance(fs, conf);
                ProgressBar bar = Progress.bar("apply", 1)) {
            if (!(f instanceof DistributedFileSystem dfs)) {
                throw new ParameterException(spec.commandLine(), "--fs " + fs + " is not an HDFS");
            }
            r = new PlanApplier(dfs, conf, root, policies)
                    .apply(p, dryRun, Duration.ofSeconds(waitSeconds), (ok, total) -> {
                        bar.maxHint(Math.max(1, total));
                        bar.stepTo(ok);
                    });
        }
        PrintWriter out = spec.commandLine().getOut();
        if (output.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("plan", plan.toString());
            m.put("dryRun", dryRun);
            List<Map<String, Object>> actions = new ArrayList<>();
            for (PlanApplier.Action a : r.actions()) {
                actions.add(Map.of("kind", a.kind(), "path", a.path(), "detail", a.detail()));
            }
            m.put("actions", actions);
            m.put("blocks", r.blocks());
            m.put("blocksOnPlannedType", r.blocksOnPlannedType());
            m.put("blocksInPlannedGroup", r.blocksInPlannedGroup());
            out.println(JsonOutput.pretty(m));
        } else {
            for (PlanApplier.Action a : r.actions()) {
                out.printf("%s%-10s %s %s%n", dryRun ? "would " : "", a.kind(), a.path(), a.detail());
            }
            out.printf(
                    "%d of %d blocks on their planned storage type, %d in their planned DataNode group%s%n",
                    r.blocksOnPlannedType(),
                    r.blocks(),
                    r.blocksInPlannedGroup(),
                    r.actions().isEmpty() ? "; nothing to change" : "");
        }
        out.flush();
        return dryRun || (r.blocksOnPlannedType() == r.blocks() && r.blocksInPlannedGroup() == r.blocks()) ? 0 : 1;
    }
}
