package io.locus.cassandra.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import com.datastax.oss.driver.internal.core.metadata.token.ByteOrderedToken;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import io.locus.cassandra.driver.DropDriver;
import io.locus.cassandra.drop.HdlbBalancer;
import io.locus.cassandra.drop.HdlbConfig;
import io.locus.cassandra.drop.KeyRangeHistogram;
import io.locus.cassandra.drop.NeighborAdjust;
import io.locus.cassandra.drop.NamespaceMetrics;
import io.locus.cassandra.drop.TokenMath;
import io.locus.cassandra.drop.Vnode;

/**
 * {@code locus-drop rebalance}: reads a live cluster's ring and the keys of each primary range of one table, and
 * prints the moves that HDLB proposes. With one token per node these are {@code nodetool move} commands (neighbour
 * boundary shifts); with vnodes, a new assignment of ranges to nodes.
 */
@Command(name = "rebalance", mixinStandardHelpOptions = true,
        description = "Compute HDLB moves for a live DROP cluster from the keys of one table (read through the driver).")
final class RebalanceCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--contact", required = true, paramLabel = "HOST:PORT", description = "A node's native (CQL) address.")
    String contact;

    @Option(names = "--datacenter", defaultValue = "datacenter1", description = "Local data center (default: ${DEFAULT-VALUE}).")
    String datacenter;

    @Option(names = "--keyspace", required = true, paramLabel = "KS")
    String keyspace;

    @Option(names = "--table", required = true, paramLabel = "T")
    String table;

    @Option(names = "--tolerance", defaultValue = "1.10", description = "t_c: a node above t_c x mean is heavy (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--snap-tolerance", defaultValue = "0.10", description = "ε of A.4.3 (default: ${DEFAULT-VALUE}).")
    double snapTolerance;

    @Option(names = "--max-moves", defaultValue = "8", description = "Moves to plan, applied one after another (default: ${DEFAULT-VALUE}).")
    int maxMoves;

    @Option(names = "--execute", description = "Apply the moves (not implemented: prints an error).")
    boolean execute;

    @Option(names = "--json", description = "Print JSON instead of text.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        if (execute) {
            throw new ParameterException(spec.commandLine(), "--execute is not implemented yet (expected: run the printed "
                    + "nodetool move commands one at a time, waiting for each to finish)");
        }
        InetSocketAddress address = parse(contact);
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60)).build();
        try (CqlSession session = DropDriver.sessionBuilder().withConfigLoader(config).addContactPoint(address)
                .withLocalDatacenter(datacenter).build()) {
            TokenMap map = session.getMetadata().getTokenMap().orElseThrow(() -> new IllegalStateException(
                    "the driver has no token map for " + contact + " (expected: a cluster running " + DropDriver.PARTITIONER + ")"));
            if (!DropDriver.PARTITIONER.equals(map.getPartitionerName())) {
                throw new IllegalStateException("cluster partitioner " + map.getPartitionerName() + " (expected: " + DropDriver.PARTITIONER + ")");
            }
            TableMetadata t = session.getMetadata().getKeyspace(keyspace).flatMap(k -> k.getTable(table)).orElseThrow(
                    () -> new IllegalArgumentException("table " + keyspace + "." + table + " does not exist on " + contact));
            String pk = t.getPartitionKey().get(0).getName().asCql(true);
            List<RangeKeys> ranges = readRanges(session, map, keyspace + "." + table, pk);
            return report(ranges);
        }
    }

    /** One primary range of one node with the tokens of its keys in ascending order. */
    record RangeKeys(String node, byte[] start, byte[] end, List<byte[]> keys) {
    }

    private List<RangeKeys> readRanges(CqlSession session, TokenMap map, String qualified, String pk) {
        String q = "SELECT token(" + pk + ") FROM " + qualified + " WHERE ";
        PreparedStatement between = session.prepare(q + "token(" + pk + ") > ? AND token(" + pk + ") <= ?");
        PreparedStatement above = session.prepare(q + "token(" + pk + ") > ?");
        PreparedStatement upTo = session.prepare(q + "token(" + pk + ") <= ?");
        List<RangeKeys> out = new ArrayList<>();
        List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
        int total = nodes.stream().mapToInt(n -> map.getTokenRanges(n).size()).sum();
        try (ProgressBar pb = Progress.bar("scan ranges", total)) {
            for (Node n : nodes) {
                String name = n.getBroadcastRpcAddress().map(a -> a.getAddress().getHostAddress()).orElse(n.getEndPoint().toString());
                for (TokenRange r : map.getTokenRanges(n)) {
                    byte[] start = bytes(r.getStart());
                    byte[] end = bytes(r.getEnd());
                    List<byte[]> keys = new ArrayList<>();
                    if (TokenMath.compare(start, end) < 0) {
                        collect(session, between.bind(ByteBuffer.wrap(start), ByteBuffer.wrap(end)), keys);
                    } else {   // wraps (or the whole ring for a single token)
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

    private static void collect(CqlSession session, com.datastax.oss.driver.api.core.cql.Statement<?> st, List<byte[]> keys) {
        for (Row row : session.execute(st.setPageSize(5000))) {
            ByteBuffer b = row.getByteBuffer(0);
            byte[] t = new byte[b.remaining()];
            b.duplicate().get(t);
            keys.add(t);
        }
    }

    private int report(List<RangeKeys> ranges) {
        List<String> nodeNames = ranges.stream().map(RangeKeys::node).distinct().sorted().toList();
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
                vnodes.add(new Vnode(TokenMath.toHex(r.end()), nodeNames.indexOf(r.node()), r.keys().size(),
                        KeyRangeHistogram.ofSorted(r.keys(), 1), 0));
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
        PrintWriter w = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("nodes", nodeNames);
            root.put("ranges", ranges.size());
            root.put("keys", ranges.stream().mapToLong(r -> r.keys().size()).sum());
            List<Long> loads = new ArrayList<>();
            for (long l : load) {
                loads.add(l);
            }
            root.put("loadPerNode", loads);
            root.put("maxOverMean", before.maxOverMean());
            root.put("moves", moves);
            w.println(Json.write(root));
        } else {
            w.printf("# %s.%s: %d ranges on %d nodes, %d keys, max/mean %.3f%n", keyspace, table, ranges.size(),
                    nodeNames.size(), ranges.stream().mapToLong(r -> r.keys().size()).sum(), before.maxOverMean());
            for (int i = 0; i < nodeNames.size(); i++) {
                w.printf("node %-15s keys %d%n", nodeNames.get(i), load[i]);
            }
            if (moves.isEmpty()) {
                w.println("# balanced within tolerance " + tolerance + ": no moves");
            }
            moves.forEach(m -> w.println(m.containsKey("command") ? m.get("command")
                    : "move vnode " + m.get("vnode") + " from " + m.get("from") + " to " + m.get("to")));
        }
        w.flush();
        return 0;
    }

    private static byte[] bytes(com.datastax.oss.driver.api.core.metadata.token.Token t) {
        ByteBuffer b = ((ByteOrderedToken) t).getValue();
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private InetSocketAddress parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "--contact " + hostPort + " (expected: HOST:PORT, e.g. 10.0.0.1:9042)");
        }
    }
}
