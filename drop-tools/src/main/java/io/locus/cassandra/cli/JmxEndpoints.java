package io.locus.cassandra.cli;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each node's JMX listens: {@code --jmx-port} on the node's own address, unless {@code --jmx NODE=[HOST:]PORT}
 * names another endpoint (several nodes on one machine each need their own port; Cassandra's local-only JMX listens on
 * 127.0.0.1 whatever the node's address). Pure.
 */
final class JmxEndpoints {
    private final int defaultPort;
    private final Map<String, InetSocketAddress> overrides;

    private JmxEndpoints(int defaultPort, Map<String, InetSocketAddress> overrides) {
        this.defaultPort = defaultPort;
        this.overrides = overrides;
    }

    /**
     * @param defaultPort the port of nodes not named in {@code specs}
     * @param specs {@code NODE=PORT} or {@code NODE=HOST:PORT}, NODE being the address the ring reports
     * @throws IllegalArgumentException naming the first malformed spec, a port out of range or a node given twice
     */
    static JmxEndpoints parse(int defaultPort, List<String> specs) {
        checkPort(defaultPort, "--jmx-port " + defaultPort);
        Map<String, InetSocketAddress> overrides = new LinkedHashMap<>();
        for (String spec : specs) {
            int eq = spec.indexOf('=');
            if (eq <= 0 || eq == spec.length() - 1) {
                throw new IllegalArgumentException("--jmx " + spec + " (expected: NODE=PORT or NODE=HOST:PORT, e.g. "
                        + "127.0.0.2=7200 or 127.0.0.2=127.0.0.1:7200)");
            }
            String node = spec.substring(0, eq);
            String target = spec.substring(eq + 1);
            int colon = target.lastIndexOf(':');
            String host = colon < 0 ? node : target.substring(0, colon);
            int port;
            try {
                port = Integer.parseInt(colon < 0 ? target : target.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--jmx " + spec + ": port \"" + (colon < 0 ? target : target.substring(colon + 1))
                                + "\" is not a number (expected: NODE=PORT or NODE=HOST:PORT)");
            }
            checkPort(port, "--jmx " + spec);
            if (host.isEmpty()) {
                throw new IllegalArgumentException("--jmx " + spec + ": empty host (expected: NODE=HOST:PORT)");
            }
            if (overrides.put(node, InetSocketAddress.createUnresolved(host, port)) != null) {
                throw new IllegalArgumentException("--jmx names node " + node + " twice");
            }
        }
        return new JmxEndpoints(defaultPort, overrides);
    }

    private static void checkPort(int port, String what) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(what + ": port " + port + " out of range (expected: 1-65535)");
        }
    }

    /** The JMX endpoint of {@code node} (unresolved). */
    InetSocketAddress of(String node) {
        InetSocketAddress o = overrides.get(node);
        return o != null ? o : InetSocketAddress.createUnresolved(node, defaultPort);
    }

    /** Nodes named by {@code --jmx} that are not in {@code ring}: most likely a typo. */
    List<String> unknownNodes(java.util.Collection<String> ring) {
        return overrides.keySet().stream().filter(n -> !ring.contains(n)).toList();
    }
}
