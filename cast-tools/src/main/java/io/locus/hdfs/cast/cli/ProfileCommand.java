package io.locus.hdfs.cast.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.hdfs.apply.PlanApplier;
import io.locus.hdfs.apply.TierProfiler;
import io.locus.hdfs.cast.io.TierFiles;
import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.TierCatalog;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-cast profile}: measure each storage type of an HDFS and write a tiers file from it. */
@Command(
        name = "profile",
        mixinStandardHelpOptions = true,
        description = "Measure each storage type's write and read throughput with a short run under a policy-pinned"
                + " scratch directory, and write a tiers file (one tier per storage type) for plan --tiers.")
final class ProfileCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--fs", required = true, paramLabel = "URI", description = "The HDFS, e.g. hdfs://namenode:8020.")
    URI fs;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Tiers file to write.")
    Path out;

    @Option(
            names = "--mb",
            defaultValue = "64",
            paramLabel = "N",
            description = "MB written and read per storage type (default: ${DEFAULT-VALUE}).")
    int mb;

    @Option(
            names = "--scratch",
            defaultValue = "/tmp/locus-cast-profile",
            paramLabel = "DIR",
            description = "HDFS scratch directory, deleted afterwards (default: ${DEFAULT-VALUE}).")
    String scratch;

    @Option(
            names = "--price",
            paramLabel = "TYPE=$",
            description =
                    "Price per GB-month of a storage type (default: SSD=0.17, DISK=0.04, ARCHIVE=0.026, others 0.1).")
    Map<String, Double> price = new LinkedHashMap<>();

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        if (!"hdfs".equals(fs.getScheme()) || mb < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--fs " + fs + " --mb " + mb + " (expected: hdfs://HOST:PORT, --mb >= 1)");
        }
        Map<String, Double> prices = new LinkedHashMap<>(Map.of("SSD", 0.17, "DISK", 0.04, "ARCHIVE", 0.026));
        prices.putAll(price);
        Configuration conf = new Configuration();
        conf.set("fs.defaultFS", fs.toString());
        List<TierProfiler.Measurement> ms;
        try (FileSystem f = FileSystem.newInstance(fs, conf)) {
            if (!(f instanceof DistributedFileSystem dfs)) {
                throw new ParameterException(spec.commandLine(), "--fs " + fs + " is not an HDFS");
            }
            ms = new TierProfiler(dfs)
                    .measure(new org.apache.hadoop.fs.Path(scratch), PlanApplier.DEFAULT_POLICIES, (long) mb << 20);
        }
        List<Tier> tiers = new ArrayList<>();
        for (TierProfiler.Measurement m : ms) {
            double mbps = Math.min(m.writeMBps(), m.readMBps());
            tiers.add(new Tier(
                    m.type().name().toLowerCase(Locale.ROOT),
                    m.type().name(),
                    null,
                    prices.getOrDefault(m.type().name(), 0.1),
                    new double[][] {{0, mbps}},
                    0,
                    0,
                    Double.POSITIVE_INFINITY,
                    0,
                    true,
                    null,
                    null,
                    false,
                    0,
                    m.capacityBytes() / (1024.0 * 1024 * 1024),
                    new double[] {0}));
        }
        if (tiers.isEmpty()) {
            throw new IllegalStateException(fs + " has no storage type with a known storage policy");
        }
        TierFiles.write(new TierCatalog(tiers), out);
        PrintWriter pw = spec.commandLine().getOut();
        if (output.json) {
            List<Map<String, Object>> rows = new ArrayList<>();
            for (TierProfiler.Measurement m : ms) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("storageType", m.type().name());
                r.put("policy", m.policy());
                r.put("bytes", m.bytes());
                r.put("writeMBps", m.writeMBps());
                r.put("readMBps", m.readMBps());
                r.put("capacityBytes", m.capacityBytes());
                rows.add(r);
            }
            pw.println(JsonOutput.pretty(Map.of("tiers", out.toString(), "measurements", rows)));
        } else {
            pw.printf("%-9s %-9s %10s %10s %14s%n", "TYPE", "POLICY", "WRITE_MB/S", "READ_MB/S", "CAPACITY_GB");
            for (TierProfiler.Measurement m : ms) {
                pw.printf(
                        "%-9s %-9s %10.1f %10.1f %14.1f%n",
                        m.type(), m.policy(), m.writeMBps(), m.readMBps(), m.capacityBytes() / (1024.0 * 1024 * 1024));
            }
            pw.printf("tiers written to %s (one client's throughput; prices from --price)%n", out);
        }
        pw.flush();
        return 0;
    }
}
