package io.locus.cassandra.cli;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.locus.cassandra.copy.CopyCheckpoint;
import io.locus.cassandra.copy.TableCopy;
import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code locus-drop copy}: moves a table of an existing Murmur3 cluster onto a DROP cluster (Cassandra cannot change a
 * cluster's partitioner), resumable, and checked by row count and digest at the end ({@link TableCopy}).
 */
@Command(
        name = "copy",
        mixinStandardHelpOptions = true,
        description =
                "Copy a table from a Murmur3 cluster to a table of the same schema on a DROP cluster, slice by "
                        + "slice of the token ring, resumable from a checkpoint file; compares row counts and digests at the end.")
final class CopyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--from", required = true, paramLabel = "HOST:PORT", description = "A source node's CQL address.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "HOST:PORT", description = "A target node's CQL address.")
    String to;

    @Option(
            names = "--table",
            required = true,
            paramLabel = "KS.T",
            description = "The source table; given twice, the second names the target table (default: the same name).")
    List<String> tables = new ArrayList<>();

    @Option(
            names = "--from-datacenter",
            defaultValue = "datacenter1",
            description = "The source's local data center (default: ${DEFAULT-VALUE}).")
    String fromDatacenter;

    @Option(
            names = "--to-datacenter",
            defaultValue = "datacenter1",
            description = "The target's local data center (default: ${DEFAULT-VALUE}).")
    String toDatacenter;

    @Option(
            names = "--splits",
            defaultValue = "256",
            description = "Slices of the source's token ring; each is recorded in the checkpoint when copied "
                    + "(default: ${DEFAULT-VALUE}).")
    int splits;

    @Option(
            names = "--max-splits",
            paramLabel = "N",
            description = "Copy at most N slices in this run, then stop (run again to go on). Default: all.")
    Integer maxSplits;

    @Option(
            names = "--page-size",
            defaultValue = "1000",
            description = "Rows per page read from the source (default: ${DEFAULT-VALUE}).")
    int pageSize;

    @Option(
            names = "--concurrency",
            defaultValue = "32",
            description = "Writes in flight to the target (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(
            names = "--consistency",
            defaultValue = "LOCAL_QUORUM",
            description = "Consistency level of reads and writes (default: ${DEFAULT-VALUE}).")
    String consistency;

    @Option(
            names = "--checkpoint",
            paramLabel = "FILE",
            description = "Where finished slices are recorded (default: locus-drop-copy-KS.T.checkpoint in the current "
                    + "directory); deleted once the copy is complete and checked.")
    Path checkpoint;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() {
        if (tables.size() > 2) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--table given " + tables.size()
                            + " times (expected: once, or twice for a target table of another name)");
        }
        String[] source = qualified(tables.get(0));
        String[] target = qualified(tables.get(tables.size() - 1));
        ConsistencyLevel cl = consistencyLevel();
        InetSocketAddress fromAddress = Contact.parse(spec, "--from", from);
        InetSocketAddress toAddress = Contact.parse(spec, "--to", to);
        Path file = checkpoint != null
                ? checkpoint
                : Path.of("locus-drop-copy-" + source[0] + "." + source[1] + ".checkpoint");
        String job = from + " " + source[0] + "." + source[1] + " -> " + to + " " + target[0] + "." + target[1];
        CopyCheckpoint state = CopyCheckpoint.open(file, job, splits);
        PrintWriter w = spec.commandLine().getOut();
        try (CqlSession src = Contact.session(fromAddress, fromDatacenter);
                CqlSession dst = Contact.session(toAddress, toDatacenter)) {
            TableCopy copy = TableCopy.between(
                    new TableCopy.Side(src, source[0], source[1], from),
                    new TableCopy.Side(dst, target[0], target[1], to),
                    pageSize,
                    concurrency,
                    cl);
            TableCopy.Progress progress;
            try (ProgressBar pb = Progress.bar("copy slices", splits)) {
                pb.stepTo(state.doneCount());
                progress = copy.copy(state, maxSplits == null ? Integer.MAX_VALUE : maxSplits, i -> pb.step());
            }
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("job", job);
            result.put("checkpoint", file.toString());
            result.put("splitsCopied", progress.splitsCopied());
            result.put("splitsDoneBefore", progress.splitsDoneBefore());
            result.put("splitsLeft", progress.splitsLeft());
            result.put("rowsWritten", progress.rowsWritten());
            int code = 0;
            if (progress.splitsLeft() == 0) {
                TableCopy.Comparison check = copy.verify();
                result.put("sourceRows", check.source().rows());
                result.put("targetRows", check.target().rows());
                result.put("sourceDigest", check.source().sum());
                result.put("targetDigest", check.target().sum());
                result.put("verified", check.same());
                if (check.same()) {
                    state.delete();
                } else {
                    code = 1;
                }
            }
            if (output.json) {
                JsonOutput.print(w, result);
            } else {
                w.printf(
                        "copied %d slice(s) now (%d before), %d left; %d rows written%n",
                        progress.splitsCopied(),
                        progress.splitsDoneBefore(),
                        progress.splitsLeft(),
                        progress.rowsWritten());
                if (progress.splitsLeft() > 0) {
                    w.printf("checkpoint %s; run the same command again to go on%n", file);
                } else {
                    w.printf(
                            "source %s: %s rows, digest %s%ntarget %s: %s rows, digest %s%n",
                            from,
                            result.get("sourceRows"),
                            result.get("sourceDigest"),
                            to,
                            result.get("targetRows"),
                            result.get("targetDigest"));
                    if (code == 0) {
                        w.println("the target holds exactly the source's rows");
                    }
                }
            }
            w.flush();
            if (code != 0) {
                PrintWriter err = spec.commandLine().getErr();
                err.println("locus-drop: the target " + to + " " + target[0] + "." + target[1]
                        + " differs from the source (rows written to either side during the copy, or rows the target"
                        + " had before); checkpoint kept: " + file);
                err.flush();
            }
            return code;
        }
    }

    private String[] qualified(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--table " + name + " (expected: KEYSPACE.TABLE)");
        }
        return parts;
    }

    private ConsistencyLevel consistencyLevel() {
        try {
            return DefaultConsistencyLevel.valueOf(consistency);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--consistency " + consistency
                            + " (expected: ONE, LOCAL_ONE, QUORUM, LOCAL_QUORUM, EACH_QUORUM or ALL)");
        }
    }
}
