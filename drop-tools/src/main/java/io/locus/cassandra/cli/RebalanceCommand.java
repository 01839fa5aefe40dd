package io.locus.cassandra.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import com.datastax.oss.driver.internal.core.metadata.token.ByteOrderedToken;
import io.locus.cassandra.balance.HdlbBalancer;
import io.locus.cassandra.balance.HdlbConfig;
import io.locus.cassandra.balance.KeyRangeHistogram;
import io.locus.cassandra.balance.NamespaceMetrics;
import io.locus.cassandra.balance.NeighborAdjust;
import io.locus.cassandra.balance.Vnode;
import io.locus.cassandra.driver.DropDriver;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code locus-drop rebalance}: reads a live cluster's ring and the keys of each primary range of one table, and
 * prints the moves that HDLB proposes. With one token per node these are {@code nodetool move} commands (neighbour
 * boundary shifts), which {@code --execute} applies through JMX ({@link MoveExecutor}) and then reads the ring again;
 * with vnodes, a new assignment of ranges to nodes (printed only: Cassandra cannot move single vnodes).
 */
@Command(
        name = "rebalance",
        mixinStandardHelpOptions = true,
        description =
                "Compute HDLB moves for a live DROP cluster from the keys of one table (read through the driver).")
final class RebalanceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(
            names = "--contact",
            required = true,
            paramLabel = "HOST:PORT",
            description = "A node's native (CQL) address.")
    String contact;

    @Option(
            names = "--datacenter",
            defaultValue = "datacenter1",
            description = "Local data center (default: ${DEFAULT-VALUE}).")
    String datacenter;

    @Option(names = "--keyspace", required = true, paramLabel = "KS")
    String keyspace;

    @Option(names = "--table", required = true, paramLabel = "T")
    String table;

    @Option(
            names = "--tolerance",
            defaultValue = "1.10",
            description = "t_c: a node above t_c x mean is heavy (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(
            names = "--snap-tolerance",
            defaultValue = "0.10",
            description =
                    "how far a boundary may move to a shallower subtree, as a fraction of the keys per range (default: ${DEFAULT-VALUE}).")
    double snapTolerance;

    @Option(
            names = "--max-moves",
            defaultValue = "8",
            description = "Moves to plan, applied one after another (default: ${DEFAULT-VALUE}).")
    int maxMoves;

    @Option(
            names = "--execute",
            description = "Apply the moves through JMX (StorageService.move, as nodetool move), one node "
                    + "at a time, each finished before the next; needs num_tokens 1.")
    boolean execute;

    @Option(
            names = "--jmx-port",
            defaultValue = "7199",
            description = "JMX port of every node (default: ${DEFAULT-VALUE}, Cassandra's JMX_PORT).")
    int jmxPort;

    @Option(
            names = "--jmx",
            paramLabel = "NODE=[HOST:]PORT",
            description = "JMX endpoint of one node (repeatable), e.g. "
                    + "127.0.0.2=7200 when several nodes share a machine; NODE as the ring names it.")
    List<String> jmx = new ArrayList<>();

    @Option(
            names = "--move-timeout",
            defaultValue = "3600",
            paramLabel = "SECONDS",
            description = "Longest wait for one move to stream and settle (default: ${DEFAULT-VALUE}).")
    long moveTimeoutSeconds;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception {
        JmxEndpoints endpoints = null;
        if (execute) {
            if (moveTimeoutSeconds < 1) {
                throw new ParameterException(
                        spec.commandLine(), "--move-timeout " + moveTimeoutSeconds + " (expected: >= 1 s)");
            }
            try {
                endpoints = JmxEndpoints.parse(jmxPort, jmx);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        } else if (!jmx.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--jmx is only used with --execute");
        }
        InetSocketAddress address = Contact.parse(spec, "--contact", contact);
        List<RangeKeys> ranges;
        try (CqlSession session = open(address)) {
            TokenMap map = tokenMap(session);
            if (execute) {
                requireSingleTokens(session, map, endpoints);
            }
            ranges = readRanges(session, map);
        }
        Plan plan = plan(ranges);
        PrintWriter w = spec.commandLine().getOut();
        if (!execute || plan.moves().isEmpty()) {
            print(w, plan, null);
            return 0;
        }
        if (!output.json) {
            print(w, plan, null);
            w.printf(
                    "# executing %d move(s) through JMX, one node at a time%n",
                    plan.moves().size());
            w.flush();
        }
        List<MoveExecutor.PlannedMove> planned = new ArrayList<>();
        for (Map<String, Object> m : plan.moves()) {
            planned.add(
                    new MoveExecutor.PlannedMove((String) m.get("node"), (String) m.get("from"), (String) m.get("to")));
        }
        List<Double> seconds;
        try (CqlSession session = open(address);
                MoveExecutor executor =
                        new MoveExecutor(endpoints, Duration.ofSeconds(moveTimeoutSeconds), peersView(session))) {
            executor.preflight(planned);
            seconds = executor.execute(planned);
        }
        for (int i = 0; i < planned.size(); i++) {
            plan.moves().get(i).put("seconds", Math.round(seconds.get(i) * 10) / 10.0);
            if (!output.json) {
                w.printf(
                        "# moved %s to %s in %.1f s%n",
                        planned.get(i).node(), planned.get(i).to(), seconds.get(i));
            }
        }
        // A new session reads the ring afresh; every node already lists the new tokens (MoveExecutor waited for it).
        List<RangeKeys> after;
        try (CqlSession session = open(address)) {
            after = readRanges(session, tokenMap(session));
        }
        print(w, plan, plan(after));
        return 0;
    }

    private CqlSession open(InetSocketAddress address) {
        return Contact.session(address, datacenter);
    }

    private TokenMap tokenMap(CqlSession session) {
        TokenMap map = session.getMetadata()
                .getTokenMap()
                .orElseThrow(() -> new IllegalStateException("the driver has no token map for " + contact
                        + " (expected: a cluster running " + DropDriver.PARTITIONER + ")"));
        if (!DropDriver.PARTITIONER.equals(map.getPartitionerName())) {
            throw new IllegalStateException(
                    "cluster partitioner " + map.getPartitionerName() + " (expected: " + DropDriver.PARTITIONER + ")");
        }
        return map;
    }

    /** Cassandra moves only nodes with one token ("This node has more than one token and cannot be moved thusly"). */
    private void requireSingleTokens(CqlSession session, TokenMap map, JmxEndpoints endpoints) {
        List<String> names = new ArrayList<>();
        for (Node n : session.getMetadata().getNodes().values()) {
            int tokens = map.getTokens(n).size();
            names.add(name(n));
            if (tokens != 1) {
                throw new ParameterException(
                        spec.commandLine(),
                        "--execute needs num_tokens: 1 on every node, but node "
                                + name(n) + " has " + tokens
                                + " tokens: Cassandra cannot move a node with several tokens (nodetool"
                                + " move refuses it). Without --execute, rebalance prints which vnode ranges HDLB would reassign;"
                                + " apply that by planning new tokens (locus-drop plan --vnodes) for nodes that join afresh");
            }
        }
        List<String> unknown = endpoints.unknownNodes(names);
        if (!unknown.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--jmx names " + unknown + ", not in the ring " + names);
        }
    }

    /** Each other node's system.peers_v2 row of the moved node, read through the driver with the query pinned to it. */
    private MoveExecutor.RingView peersView(CqlSession session) {
        return (node, token) -> {
            for (Node n : session.getMetadata().getNodes().values()) {
                if (name(n).equals(node)) {
                    continue;
                }
                Set<String> seen = null;
                for (Row r : session.execute(
                        SimpleStatement.newInstance("SELECT native_address, tokens FROM system.peers_v2")
                                .setNode(n))) {
                    if (!r.isNull(0) && r.getInetAddress(0).getHostAddress().equals(node)) {
                        seen = r.getSet(1, String.class);
                    }
                }
                if (seen == null || !seen.equals(Set.of(token))) {
                    return "node " + name(n) + " lists " + node + " with token(s) " + seen;
                }
            }
            return null;
        };
    }

    private static String name(Node n) {
        return n.getBroadcastRpcAddress()
                .map(a -> a.getAddress().getHostAddress())
                .orElse(n.getEndPoint().toString());
    }

    /** One primary range of one node with the tokens of its keys in ascending order. */
    record RangeKeys(String node, byte[] start, byte[] end, List<byte[]> keys) {}

    private List<RangeKeys> readRanges(CqlSession session, TokenMap map) {
        TableMetadata t = session.getMetadata()
                .getKeyspace(keyspace)
                .flatMap(k -> k.getTable(table))
                .orElseThrow(() -> new IllegalArgumentException(
                        "table " + keyspace + "." + table + " does not exist on " + contact));
        String pk = t.getPartitionKey().get(0).getName().asCql(true);
        String qualified = keyspace + "." + table;
        String q = "SELECT token(" + pk + ") FROM " + qualified + " WHERE ";
        PreparedStatement between = session.prepare(q + "token(" + pk + ") > ? AND token(" + pk + ") <= ?");
        PreparedStatement above = session.prepare(q + "token(" + pk + ") > ?");
        PreparedStatement upTo = session.prepare(q + "token(" + pk + ") <= ?");
        List<RangeKeys> out = new ArrayList<>();
        List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
        int total = nodes.stream().mapToInt(n -> map.getTokenRanges(n).size()).sum();
        try (ProgressBar pb = Progress.bar("scan ranges", total)) {
            for (Node n : nodes) {
                String name = name(n);
                for (TokenRange r : map.getTokenRanges(n)) {
                    byte[] start = bytes(r.getStart());
                    byte[] end = bytes(r.getEnd());
                    List<byte[]> keys = new ArrayList<>();
                    if (TokenMath.compare(start, end) < 0) {
                        collect(session, between.bind(ByteBuffer.wrap(start), ByteBuffer.wrap(end)), keys);
                    } else { // wraps (or the whole ring for a single token)
                        collect(session, above.bind(ByteBuffer.wrap(start)), keys);
                        collect(session, upTo.bind(ByteBuffer.wrap(end)), keys);
                    }
                    keys.sort(TokenMath::compare);
                    out.add(new RangeKeys(name, start, end, keys));
                    pb.step();
                }
            }
        }
        out.sort(Comparator.comparing(RangeKeys::end, TokenMath::compare));
        return out;
    }

    private static void collect(
            CqlSession session, com.datastax.oss.driver.api.core.cql.Statement<?> st, List<byte[]> keys) {
        for (Row row : session.execute(st.setPageSize(5000))) {
            ByteBuffer b = row.getByteBuffer(0);
            byte[] t = new byte[b.remaining()];
            b.duplicate().get(t);
            keys.add(t);
        }
    }

    /** Loads per node and the moves HDLB proposes for them. */
    record Plan(
            List<String> nodeNames,
            long[] load,
            long keys,
            int ranges,
            NamespaceMetrics.Balance balance,
            List<Map<String, Object>> moves) {}

    private Plan plan(List<RangeKeys> ranges) {
        List<String> nodeNames =
                ranges.stream().map(RangeKeys::node).distinct().sorted().toList();
        long[] load = new long[nodeNames.size()];
        ranges.forEach(r -> load[nodeNames.indexOf(r.node())] += r.keys().size());
        NamespaceMetrics.Balance before = NamespaceMetrics.balanceOf(load);
        boolean singleToken = ranges.size() == nodeNames.size();
        List<Map<String, Object>> moves = new ArrayList<>();
        if (singleToken) {
            List<NeighborAdjust.NodeRange> ring = new ArrayList<>();
            for (RangeKeys r : ranges) {
                ring.add(new NeighborAdjust.NodeRange(r.node(), r.end(), KeyRangeHistogram.ofSorted(r.keys(), 1)));
            }
            for (NeighborAdjust.Move m : NeighborAdjust.plan(ring, tolerance, snapTolerance, maxMoves)) {
                Map<String, Object> mv = new LinkedHashMap<>();
                mv.put("node", m.node());
                mv.put("from", TokenMath.toHex(m.oldToken()));
                mv.put("to", TokenMath.toHex(m.newToken()));
                mv.put("keysMoved", m.keysMoved());
                mv.put("command", "nodetool -h " + m.node() + " move " + TokenMath.toHex(m.newToken()));
                moves.add(mv);
            }
        } else {
            List<Vnode> vnodes = new ArrayList<>();
            for (RangeKeys r : ranges) {
                vnodes.add(new Vnode(
                        TokenMath.toHex(r.end()),
                        nodeNames.indexOf(r.node()),
                        r.keys().size(),
                        KeyRangeHistogram.ofSorted(r.keys(), 1),
                        0));
            }
            HdlbBalancer.RoundPlan plan = new HdlbBalancer(new HdlbConfig(tolerance, snapTolerance, 3, 1, 10_000))
                    .round(vnodes, nodeNames.size());
            for (HdlbBalancer.Move m : plan.moves()) {
                Map<String, Object> mv = new LinkedHashMap<>();
                mv.put("vnode", m.vnode().id());
                mv.put("from", nodeNames.get(m.from()));
                mv.put("to", nodeNames.get(m.to()));
                mv.put("keysMoved", m.vnode().weight());
                moves.add(mv);
            }
        }
        return new Plan(
                nodeNames, load, ranges.stream().mapToLong(r -> r.keys().size()).sum(), ranges.size(), before, moves);
    }

    /** Prints the plan; with {@code after} (the ring re-read after --execute), that too. */
    private void print(PrintWriter w, Plan plan, Plan after) {
        if (output.json) {
            Map<String, Object> root = summary(plan);
            root.put("moves", plan.moves());
            root.put("executed", after != null);
            if (after != null) {
                root.put("after", summary(after));
            }
            w.println(JsonOutput.line(root));
        } else if (after == null) {
            summarize(w, plan, "");
            if (plan.moves().isEmpty()) {
                w.println("# balanced within tolerance " + tolerance + ": no moves");
            }
            plan.moves()
                    .forEach(m -> w.println(
                            m.containsKey("command")
                                    ? m.get("command")
                                    : "move vnode " + m.get("vnode") + " from " + m.get("from") + " to "
                                            + m.get("to")));
        } else {
            summarize(w, after, "after the moves: ");
            w.println("# the rows a node gave away stay on its disk until `nodetool cleanup`: run it on every node");
        }
        w.flush();
    }

    private Map<String, Object> summary(Plan plan) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("nodes", plan.nodeNames());
        root.put("ranges", plan.ranges());
        root.put("keys", plan.keys());
        List<Long> loads = new ArrayList<>();
        for (long l : plan.load()) {
            loads.add(l);
        }
        root.put("loadPerNode", loads);
        root.put("maxOverMean", plan.balance().maxOverMean());
        return root;
    }

    private void summarize(PrintWriter w, Plan plan, String prefix) {
        w.printf(
                "# %s%s.%s: %d ranges on %d nodes, %d keys, max/mean %.3f%n",
                prefix,
                keyspace,
                table,
                plan.ranges(),
                plan.nodeNames().size(),
                plan.keys(),
                plan.balance().maxOverMean());
        for (int i = 0; i < plan.nodeNames().size(); i++) {
            w.printf("node %-15s keys %d%n", plan.nodeNames().get(i), plan.load()[i]);
        }
    }

    private static byte[] bytes(com.datastax.oss.driver.api.core.metadata.token.Token t) {
        ByteBuffer b = ((ByteOrderedToken) t).getValue();
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
