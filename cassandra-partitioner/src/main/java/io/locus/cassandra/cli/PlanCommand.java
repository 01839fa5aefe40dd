package io.locus.cassandra.cli;

import io.locus.cassandra.drop.Baselines;
import io.locus.cassandra.drop.DropPlanner;
import io.locus.cassandra.drop.TokenMath;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code locus-drop plan}: balanced, locality-preserving initial_token values for every node. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Plan initial_token values for N nodes from a sample of keys (one path per line).")
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--keys",
            required = true,
            paramLabel = "FILE",
            description = "Key sample, one key per line (.gz ok).")
    Path keys;

    @Option(names = "--nodes", required = true, paramLabel = "N", description = "Number of nodes (>= 1).")
    int nodes;

    @Option(
            names = "--vnodes",
            defaultValue = "1",
            paramLabel = "V",
            description = "Tokens per node, Cassandra's num_tokens (default: ${DEFAULT-VALUE}).")
    int vnodes;

    @Option(
            names = "--snap-tolerance",
            defaultValue = "0.02",
            paramLabel = "EPS",
            description =
                    "Fraction of a range's keys a boundary may move to cut a shallower subtree (default: ${DEFAULT-VALUE}).")
    double snapTolerance;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Also write the plan as YAML (per node: num_tokens, initial_token).")
    Path out;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || vnodes < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--nodes " + nodes + " --vnodes " + vnodes + " (expected: >= 1 each)");
        }
        KeySample sample = KeySample.load(keys);
        DropPlanner.Plan plan = DropPlanner.plan(sample.tokens(), nodes, vnodes, snapTolerance);
        PlacementReport report = PlacementReport.of(
                "DROP (planned)", sample.keys(), Baselines.drop(sample.keys(), sample.tokens(), plan.ring()), nodes);
        List<Map<String, Object>> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("node", n);
            m.put("num_tokens", vnodes);
            m.put("initial_token", initialToken(plan.tokensPerNode().get(n)));
            m.put("predictedKeys", plan.predictedLoad()[n]);
            perNode.add(m);
        }
        if (out != null) {
            writeYaml(out, perNode);
        }
        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("keys", sample.keys().size());
            root.put("nodes", perNode);
            root.put("predicted", report.toMap());
            w.println(Json.write(root));
        } else {
            w.printf(
                    "# %d keys from %s, %d nodes x %d tokens, snap tolerance %.3f%n",
                    sample.keys().size(), keys, nodes, vnodes, snapTolerance);
            for (Map<String, Object> m : perNode) {
                w.printf(
                        "node %-3s keys %-9s initial_token: %s%n",
                        m.get("node"), m.get("predictedKeys"), m.get("initial_token"));
            }
            w.println(PlacementReport.header());
            w.println(report.row());
        }
        w.flush();
        return 0;
    }

    private static String initialToken(List<byte[]> tokens) {
        List<String> hex = new ArrayList<>();
        tokens.stream().sorted(TokenMath::compare).forEach(t -> hex.add(TokenMath.toHex(t)));
        return String.join(",", hex);
    }

    private static void writeYaml(Path file, List<Map<String, Object>> perNode) throws java.io.IOException {
        StringBuilder y = new StringBuilder("# locus-drop plan: put each node's lines into its cassandra.yaml\n");
        y.append("partitioner: io.locus.cassandra.DropPartitioner\nnodes:\n");
        for (Map<String, Object> m : perNode) {
            y.append("  - node: ")
                    .append(m.get("node"))
                    .append('\n')
                    .append("    num_tokens: ")
                    .append(m.get("num_tokens"))
                    .append('\n')
                    .append("    initial_token: ")
                    .append(m.get("initial_token"))
                    .append('\n')
                    .append("    predicted_keys: ")
                    .append(m.get("predictedKeys"))
                    .append('\n');
        }
        Files.writeString(file, y.toString(), StandardCharsets.UTF_8);
    }
}
