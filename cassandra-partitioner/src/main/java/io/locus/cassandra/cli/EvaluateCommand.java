package io.locus.cassandra.cli;

import io.locus.cassandra.drop.Baselines;
import io.locus.cassandra.drop.DropPlanner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-drop evaluate}: the comparison table of DESIGN.md, "Metrics" and "Baselines", on one key set. */
@Command(
        name = "evaluate",
        mixinStandardHelpOptions = true,
        description = "Balance and namespace locality of DROP vs FileHash (Murmur3), DirHash, static subtree and "
                + "ByteOrdered on the same keys.")
final class EvaluateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--keys", required = true, paramLabel = "FILE", description = "Keys, one per line (.gz ok).")
    Path keys;

    @Option(names = "--nodes", required = true, paramLabel = "N", description = "Number of nodes (>= 1).")
    int nodes;

    @Option(
            names = "--vnodes",
            defaultValue = "1",
            paramLabel = "V",
            description = "Tokens per node (default: ${DEFAULT-VALUE}).")
    int vnodes;

    @Option(
            names = "--snap-tolerance",
            defaultValue = "0.02",
            paramLabel = "EPS",
            description = "DROP planner's snap tolerance (default: ${DEFAULT-VALUE}).")
    double snapTolerance;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || vnodes < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--nodes " + nodes + " --vnodes " + vnodes + " (expected: >= 1 each)");
        }
        KeySample s = KeySample.load(keys);
        List<PlacementReport> reports = new ArrayList<>();
        try (ProgressBar pb = Progress.bar("evaluate schemes", 5)) {
            DropPlanner.Plan plan = DropPlanner.plan(s.tokens(), nodes, vnodes, snapTolerance);
            reports.add(PlacementReport.of(
                    "DROP (planned tokens)", s.keys(), Baselines.drop(s.keys(), s.tokens(), plan.ring()), nodes));
            pb.step();
            reports.add(PlacementReport.of(
                    "FileHash (Murmur3)", s.keys(), Baselines.fileHash(s.keys(), nodes, vnodes), nodes));
            pb.step();
            reports.add(PlacementReport.of(
                    "DirHash (parent dir)", s.keys(), Baselines.dirHash(s.keys(), nodes, vnodes), nodes));
            pb.step();
            reports.add(PlacementReport.of(
                    "Static subtree (depth 1)", s.keys(), Baselines.staticSubtree(s.keys(), nodes), nodes));
            pb.step();
            reports.add(PlacementReport.of(
                    "ByteOrdered (quantile tok.)", s.keys(), Baselines.byteOrdered(s.keys(), nodes, vnodes), nodes));
            pb.step();
        }
        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("keys", s.keys().size());
            root.put("nodes", nodes);
            root.put("vnodes", vnodes);
            root.put("schemes", reports.stream().map(PlacementReport::toMap).toList());
            w.println(Json.write(root));
        } else {
            w.printf(
                    "# %d keys from %s, %d nodes x %d tokens. N = nodes spanned by a directory's subtree (1 is best).%n",
                    s.keys().size(), keys, nodes, vnodes);
            w.println(PlacementReport.header());
            reports.forEach(r -> w.println(r.row()));
        }
        w.flush();
        return 0;
    }
}
