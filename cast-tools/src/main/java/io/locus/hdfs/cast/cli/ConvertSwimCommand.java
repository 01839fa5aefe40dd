package io.locus.hdfs.cast.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.hdfs.cast.io.SwimTraces;
import io.locus.hdfs.cast.io.WorkloadFiles;
import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code locus-cast convert-swim}: a SWIM trace (FB-2009 / FB-2010 TSV) as a workload file. */
@Command(
        name = "convert-swim",
        mixinStandardHelpOptions = true,
        description = "Convert a SWIM trace (FB-2009 or FB-2010 TSV) into a workload file; FB-2010 input paths read by"
                + " more than one job become shared datasets (CAST++ reuse groups).")
final class ConvertSwimCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--trace", required = true, paramLabel = "TSV", description = "The SWIM trace.")
    Path trace;

    @Option(names = "--limit", defaultValue = "0", paramLabel = "N", description = "Only the first N jobs (0: all).")
    int limit;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Workload file (.yaml or .json).")
    Path out;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        Workload w = SwimTraces.read(trace, Cluster.DEFAULT, TierCatalog.paper(), limit);
        WorkloadFiles.write(w, out);
        long shared = w.jobs().stream().filter(j -> j.dataset() != null).count();
        int groups = w.groups(true).size() - (int) (w.jobs().size() - shared);
        double input = w.jobs().stream().mapToDouble(j -> j.inputGb()).sum();
        if (output.json) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("workload", out.toString());
            m.put("jobs", w.jobs().size());
            m.put("inputGb", input);
            m.put("sharedJobs", shared);
            m.put("datasets", groups);
            spec.commandLine().getOut().println(JsonOutput.pretty(m));
        } else {
            spec.commandLine()
                    .getOut()
                    .printf(
                            "%s: %d jobs, %.1f GB of input, %d jobs share %d datasets%n",
                            out, w.jobs().size(), input, shared, groups);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
