package io.locus.cassandra.cli;

import io.locus.cassandra.balance.Baselines;
import io.locus.cassandra.balance.DatacenterPlanner;
import io.locus.cassandra.balance.DropPlanner;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code locus-drop plan}: balanced, locality-preserving initial_token values for every node, per data center and
 * rack, with the reserved (non-path) region given its share.
 */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = "Plan initial_token values from a sample of keys (a listing, a table, or a synthetic tree).")
final class PlanCommand implements Callable<Integer> {
    static final String PARTITIONER = "io.locus.cassandra.DropPartitioner";

    @Spec
    CommandSpec spec;

    @Mixin
    SampleSource source;

    @Mixin
    RingOptions ring;

    @Mixin
    OutputOptions output;

    @Option(
            names = "--dc",
            paramLabel = "NAME:NODES[,NAME:NODES]",
            description = "Data centers and their node counts, e.g. dc1:3,dc2:3: one balanced ring per data center "
                    + "(NetworkTopologyStrategy places replicas per data center). Instead of --nodes.")
    String datacenters;

    @Option(
            names = "--racks",
            defaultValue = "1",
            paramLabel = "R",
            description =
                    "Racks per data center: consecutive nodes on the ring alternate racks (default: ${DEFAULT-VALUE}).")
    int racks;

    @Option(
            names = "--out",
            paramLabel = "FILE",
            description = "Also write the plan as YAML (per node: data center, rack, num_tokens, initial_token).")
    Path out;

    @Override
    public Integer call() throws Exception {
        ring.validate(spec, datacenters == null);
        if (datacenters != null && ring.nodes != null) {
            throw new ParameterException(spec.commandLine(), "--nodes and --dc " + datacenters + " (expected: one)");
        }
        Map<String, Integer> dcs = datacenters == null ? Map.of("datacenter1", ring.nodes) : parseDc(datacenters);
        for (Map.Entry<String, Integer> dc : dcs.entrySet()) {
            if (racks < 1 || racks > dc.getValue()) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--racks " + racks + " for data center " + dc.getKey() + " of " + dc.getValue()
                                + " nodes (expected: 1 to the node count)");
            }
        }
        KeySample sample = KeySample.of(source.load(spec));
        Map<String, DropPlanner.Plan> plans;
        try {
            plans = DatacenterPlanner.plan(sample.tokens(), dcs, ring.vnodes, ring.snapTolerance, ring.reservedShare);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source.describe() + ": " + e.getMessage(), e);
        }
        List<Map<String, Object>> perNode = new ArrayList<>();
        List<Map<String, Object>> perDc = new ArrayList<>();
        for (Map.Entry<String, DropPlanner.Plan> e : plans.entrySet()) {
            DropPlanner.Plan plan = e.getValue();
            int nodes = plan.tokensPerNode().size();
            PlacementReport report = PlacementReport.of(
                    "DROP (planned)",
                    sample.keys(),
                    Baselines.drop(sample.keys(), sample.tokens(), plan.ring()),
                    nodes,
                    reservedExtra(plan, sample));
            List<Map<String, Object>> owners = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("datacenter", e.getKey());
                m.put("rack", "rack" + (n % racks + 1));
                m.put("node", n);
                m.put("num_tokens", ring.vnodes);
                m.put("initial_token", initialToken(plan.tokensPerNode().get(n)));
                m.put("predictedKeys", plan.predictedLoad()[n]);
                m.put("reservedRegionShare", plan.reservedOwners()[n]);
                perNode.add(m);
                if (plan.reservedOwners()[n] > 0) {
                    owners.add(owner(n, plan.reservedOwners()[n]));
                }
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("name", e.getKey());
            d.put("nodes", nodes);
            d.put("racks", racks);
            d.put("reservedRegionOwners", owners);
            d.put("predicted", report.toMap());
            perDc.add(d);
        }
        DropPlanner.Plan first = plans.values().iterator().next();
        if (out != null) {
            writeYaml(out, perNode, first);
        }
        PrintWriter w = spec.commandLine().getOut();
        if (output.json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("keys", sample.keys().size());
            root.put("source", source.describe());
            root.put("reservedShare", first.reservedShare());
            root.put("reservedShareFrom", first.reservedShareSampled() ? "sample" : "estimate");
            root.put("datacenters", perDc);
            root.put("nodes", perNode);
            JsonOutput.print(w, root);
            return 0;
        }
        w.printf(
                "# %d keys from %s; %d token(s) per node, snap tolerance %.3f%n",
                sample.keys().size(), source.describe(), ring.vnodes, ring.snapTolerance);
        w.printf(
                "# reserved (non-path) region: %.1f %% of all keys (%s)%n",
                100 * first.reservedShare(),
                first.reservedShareSampled()
                        ? "the sample's non-path keys"
                        : "estimate; set --reserved-share, the sample has no non-path key");
        w.println("# every node's cassandra.yaml: partitioner: " + PARTITIONER
                + "; remove allocate_tokens_for_local_replication_factor");
        Yaml yaml = yaml();
        int i = 0;
        for (Map<String, Object> dc : perDc) {
            w.printf(
                    "%n# data center %s: %s nodes, %d rack(s); reserved region on %s%n",
                    dc.get("name"), dc.get("nodes"), racks, ownersText(dc));
            for (int n = 0; n < (Integer) dc.get("nodes"); n++, i++) {
                Map<String, Object> m = perNode.get(i);
                w.printf(
                        "## %s / %s / node %d: predicted %d keys; cassandra-rackdc.properties: dc=%s rack=%s%n",
                        m.get("datacenter"),
                        m.get("rack"),
                        n,
                        (Long) m.get("predictedKeys"),
                        m.get("datacenter"),
                        m.get("rack"));
                Map<String, Object> snippet = new LinkedHashMap<>();
                snippet.put("num_tokens", m.get("num_tokens"));
                snippet.put("initial_token", m.get("initial_token"));
                w.print(yaml.dump(snippet));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> predicted = (Map<String, Object>) dc.get("predicted");
            w.printf(
                    "# predicted for %s (sampled keys plus the reserved estimate): max/mean %.3f%n",
                    dc.get("name"), (Double) predicted.get("maxOverMean"));
        }
        w.flush();
        return 0;
    }

    /** Per node, the reserved region's estimated keys it owns (they are in the balance, not in the sample). */
    static long[] reservedExtra(DropPlanner.Plan plan, KeySample sample) {
        long[] extra = new long[plan.tokensPerNode().size()];
        if (plan.reservedShareSampled()) {
            return extra; // the sample's non-path keys are counted where they land
        }
        double reservedKeys = plan.reservedShare() * sample.keys().size() / (1 - plan.reservedShare());
        for (int n = 0; n < extra.length; n++) {
            extra[n] = Math.round(plan.reservedOwners()[n] * reservedKeys);
        }
        return extra;
    }

    private static String ownersText(Map<String, Object> dc) {
        List<String> parts = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> owners = (List<Map<String, Object>>) dc.get("reservedRegionOwners");
        for (Map<String, Object> o : owners) {
            parts.add(String.format("node %s %.1f %%", o.get("node"), 100 * (Double) o.get("share")));
        }
        return String.join(", ", parts);
    }

    private Map<String, Integer> parseDc(String text) {
        Map<String, Integer> dcs = new LinkedHashMap<>();
        for (String part : text.split(",")) {
            String[] kv = part.split(":");
            int n;
            try {
                n = kv.length == 2 && !kv[0].isBlank() ? Integer.parseInt(kv[1].trim()) : -1;
            } catch (NumberFormatException e) {
                n = -1;
            }
            if (n < 1 || dcs.put(kv[0].trim(), n) != null) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--dc " + text + ": '" + part
                                + "' (expected: NAME:NODES[,NAME:NODES...] with distinct names and NODES >= 1, "
                                + "e.g. dc1:3,dc2:3)");
            }
        }
        return dcs;
    }

    private static String initialToken(List<byte[]> tokens) {
        List<String> hex = new ArrayList<>();
        tokens.stream().sorted(TokenMath::compare).forEach(t -> hex.add(TokenMath.toHex(t)));
        return String.join(",", hex);
    }

    private static Yaml yaml() {
        DumperOptions o = new DumperOptions();
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setSplitLines(false);
        return new Yaml(o);
    }

    private static void writeYaml(Path file, List<Map<String, Object>> perNode, DropPlanner.Plan first)
            throws java.io.IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("partitioner", PARTITIONER);
        doc.put("reserved_share", first.reservedShare());
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Map<String, Object> m : perNode) {
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("datacenter", m.get("datacenter"));
            n.put("rack", m.get("rack"));
            n.put("node", m.get("node"));
            n.put("num_tokens", m.get("num_tokens"));
            n.put("initial_token", m.get("initial_token"));
            n.put("predicted_keys", m.get("predictedKeys"));
            nodes.add(n);
        }
        doc.put("nodes", nodes);
        String header = "# locus-drop plan: put each node's partitioner, num_tokens and initial_token into its\n"
                + "# cassandra.yaml (and remove allocate_tokens_for_local_replication_factor), its datacenter and\n"
                + "# rack into cassandra-rackdc.properties (dc=, rack=) with GossipingPropertyFileSnitch.\n";
        Files.writeString(file, header + yaml().dump(doc), StandardCharsets.UTF_8);
    }

    static Map<String, Object> owner(int node, double share) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", node);
        m.put("share", share);
        return m;
    }
}
