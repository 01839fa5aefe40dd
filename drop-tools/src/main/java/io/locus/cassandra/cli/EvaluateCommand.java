package io.locus.cassandra.cli;

import io.locus.cassandra.balance.Baselines;
import io.locus.cassandra.balance.DropPlanner;
import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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

    @Mixin
    SampleSource source;

    @Mixin
    RingOptions ring;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        ring.validate(spec, true);
        int nodes = ring.nodes;
        int vnodes = ring.vnodes;
        KeySample s = KeySample.of(source.load(spec));
        List<PlacementReport> reports = new ArrayList<>();
        DropPlanner.Plan plan;
        long[] dropExtra;
        long[] evenExtra = new long[nodes];
        try (ProgressBar pb = Progress.bar("evaluate schemes", 5)) {
            try {
                plan = DropPlanner.plan(s.tokens(), nodes, vnodes, ring.snapTolerance, ring.reservedShare);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source.describe() + ": " + e.getMessage(), e);
            }
            dropExtra = PlanCommand.reservedExtra(plan, s);
            // The other schemes hash non-path keys like any other: the reserved estimate spreads evenly on them.
            Arrays.fill(evenExtra, Math.round((double) Arrays.stream(dropExtra).sum() / nodes));
            reports.add(PlacementReport.of(
                    "DROP (planned tokens)",
                    s.keys(),
                    Baselines.drop(s.keys(), s.tokens(), plan.ring()),
                    nodes,
                    dropExtra));
            pb.step();
            reports.add(PlacementReport.of(
                    "FileHash (Murmur3)", s.keys(), Baselines.fileHash(s.keys(), nodes, vnodes), nodes, evenExtra));
            pb.step();
            reports.add(PlacementReport.of(
                    "DirHash (parent dir)", s.keys(), Baselines.dirHash(s.keys(), nodes, vnodes), nodes, evenExtra));
            pb.step();
            reports.add(PlacementReport.of(
                    "Static subtree (depth 1)", s.keys(), Baselines.staticSubtree(s.keys(), nodes), nodes, evenExtra));
            pb.step();
            reports.add(PlacementReport.of(
                    "ByteOrdered (quantile tok.)",
                    s.keys(),
                    Baselines.byteOrdered(s.keys(), nodes, vnodes),
                    nodes,
                    evenExtra));
            pb.step();
        }
        List<Map<String, Object>> owners = new ArrayList<>();
        List<String> ownersText = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            double share = plan.reservedOwners()[n];
            if (share > 0) {
                owners.add(PlanCommand.owner(n, share));
                ownersText.add(String.format("node %d %.1f %%", n, 100 * share));
            }
        }
        PrintWriter w = spec.commandLine().getOut();
        if (output.json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("keys", s.keys().size());
            root.put("nodes", nodes);
            root.put("vnodes", vnodes);
            Map<String, Object> reserved = new LinkedHashMap<>();
            reserved.put("share", plan.reservedShare());
            reserved.put("from", plan.reservedShareSampled() ? "sample" : "estimate");
            reserved.put("estimatedKeys", Arrays.stream(dropExtra).sum());
            reserved.put("owners", owners);
            root.put("reservedRegion", reserved);
            root.put("schemes", reports.stream().map(PlacementReport::toMap).toList());
            JsonOutput.print(w, root);
            return 0;
        }
        w.printf(
                "# %d keys from %s, %d nodes x %d tokens. N = nodes spanned by a directory's subtree (1 is best).%n",
                s.keys().size(), source.describe(), nodes, vnodes);
        w.printf(
                "# reserved (non-path) region: %.1f %% of all keys (%s), on DROP's ring: %s%n",
                100 * plan.reservedShare(),
                plan.reservedShareSampled()
                        ? "the sample's non-path keys"
                        : Arrays.stream(dropExtra).sum() + " estimated keys added to the balance of every scheme",
                String.join(", ", ownersText));
        w.println(PlacementReport.header());
        reports.forEach(r -> w.println(r.row()));
        w.flush();
        return 0;
    }
}
