package io.locus.cassandra.cli;

import io.locus.cli.Progress;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.management.MBeanException;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import me.tongfei.progressbar.ProgressBar;

/**
 * Applies {@code nodetool move}s through JMX ({@code StorageServiceMBean.move(String)}), one node at a time: each move
 * must have finished (the node is back to NORMAL with the new token, and every other node's {@code system.peers_v2}
 * lists it) before the next one starts, since Cassandra refuses or mis-streams overlapping moves. Before the first move
 * it connects to every node that will move and checks that node's single token and mode, so an unreachable JMX or a
 * ring that changed since it was read stops everything before anything is moved. A failed move stops the run; the
 * exception names the node, the token, Cassandra's message, the node's state afterwards and what was and was not applied.
 */
final class MoveExecutor implements AutoCloseable {
    static final ObjectName STORAGE_SERVICE = objectName("org.apache.cassandra.db:type=StorageService");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);
    private static final long POLL_MILLIS = 500;

    /** One planned move: {@code node} (its address in the ring) goes from token {@code from} to {@code to} (hex). */
    record PlannedMove(String node, String from, String to) {}

    /** How the rest of the cluster sees a node's tokens. */
    interface RingView {
        /** {@code null} once every other node lists {@code node} with exactly {@code token}; else what is still missing. */
        String lagging(String node, String token);
    }

    /** A failure while executing; the message is complete enough for the operator to continue by hand. */
    static final class MoveFailure extends RuntimeException {
        MoveFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final JmxEndpoints endpoints;
    private final Duration moveTimeout;
    private final RingView ring;
    private final Map<String, JMXConnector> connectors = new HashMap<>();

    MoveExecutor(JmxEndpoints endpoints, Duration moveTimeout, RingView ring) {
        this.endpoints = endpoints;
        this.moveTimeout = moveTimeout;
        this.ring = ring;
    }

    /**
     * Connects to the JMX of every node that moves and checks it is NORMAL with exactly the token the plan moves it from.
     *
     * @throws MoveFailure naming the node, its JMX endpoint and how to enable JMX, or the state that differs
     */
    void preflight(List<PlannedMove> moves) {
        Map<String, String> firstFrom = new HashMap<>();
        moves.forEach(m -> firstFrom.putIfAbsent(m.node(), m.from()));
        for (Map.Entry<String, String> e : firstFrom.entrySet()) {
            MBeanServerConnection mbs = connection(e.getKey());
            List<String> tokens = tokens(mbs, e.getKey());
            String mode = mode(mbs, e.getKey());
            if (!tokens.equals(List.of(e.getValue())) || !"NORMAL".equals(mode)) {
                throw new MoveFailure(
                        "node " + e.getKey() + " is " + mode + " with token(s) " + tokens + " (expected: NORMAL"
                                + " with the single token " + e.getValue()
                                + " read from the ring); nothing was moved, run rebalance"
                                + " again once the ring is settled",
                        null);
            }
        }
    }

    /**
     * Applies the moves in order (each was planned on the ring left by the ones before it).
     *
     * @return seconds each move took, in order
     * @throws MoveFailure at the first move that fails or times out; no later move is attempted
     */
    List<Double> execute(List<PlannedMove> moves) {
        List<Double> seconds = new ArrayList<>();
        try (ProgressBar pb = Progress.bar("move", moves.size())) {
            for (int i = 0; i < moves.size(); i++) {
                PlannedMove m = moves.get(i);
                long t0 = System.nanoTime();
                try {
                    moveOne(m, pb, i, moves.size());
                } catch (MoveFailure f) {
                    throw new MoveFailure(f.getMessage() + "; " + progress(moves, i), f.getCause());
                }
                seconds.add((System.nanoTime() - t0) / 1e9);
                pb.step();
            }
        }
        return seconds;
    }

    private void moveOne(PlannedMove m, ProgressBar pb, int index, int count) {
        MBeanServerConnection mbs = connection(m.node());
        long deadline = System.nanoTime() + moveTimeout.toNanos();
        // StorageService.move blocks until streaming is done; run it aside and watch the node's mode meanwhile.
        CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
            try {
                mbs.invoke(STORAGE_SERVICE, "move", new Object[] {m.to()}, new String[] {String.class.getName()});
            } catch (Exception e) {
                throw new MoveCallException(e);
            }
        });
        String prefix = "[" + (index + 1) + "/" + count + "] " + m.node();
        while (true) {
            try {
                call.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException e) {
                pb.setExtraMessage(prefix + " " + safeMode(mbs));
            } catch (ExecutionException e) {
                Throwable c = e.getCause() instanceof MoveCallException mc ? mc.getCause() : e.getCause();
                throw new MoveFailure(
                        "move of node " + m.node() + " from " + m.from() + " to " + m.to() + " failed: "
                                + cassandraMessage(c) + "; the node is now " + safeMode(mbs) + " with token(s) "
                                + safeTokens(mbs),
                        c);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new MoveFailure(
                        "interrupted while node " + m.node() + " moves to " + m.to()
                                + " (the move goes on inside Cassandra)",
                        e);
            }
            if (System.nanoTime() > deadline) {
                throw new MoveFailure(
                        "move of node " + m.node() + " to " + m.to() + " did not finish within "
                                + moveTimeout.toSeconds()
                                + " s (--move-timeout); it goes on inside Cassandra: the node is "
                                + safeMode(mbs) + ", see `nodetool netstats`",
                        null);
            }
        }
        // The call returned: the node has set its token; wait for NORMAL there and for the others to see the token.
        String problem;
        while ((problem = settled(mbs, m)) != null) {
            if (System.nanoTime() > deadline) {
                throw new MoveFailure(
                        "move of node " + m.node() + " to " + m.to() + " returned, but within "
                                + moveTimeout.toSeconds() + " s (--move-timeout) " + problem,
                        null);
            }
            pb.setExtraMessage(prefix + " " + problem);
            sleep();
        }
        pb.setExtraMessage(prefix + " NORMAL");
    }

    private String settled(MBeanServerConnection mbs, PlannedMove m) {
        List<String> tokens = tokens(mbs, m.node());
        if (!tokens.equals(List.of(m.to()))) {
            return "node " + m.node() + " reports token(s) " + tokens;
        }
        String mode = mode(mbs, m.node());
        if (!"NORMAL".equals(mode)) {
            return "node " + m.node() + " is " + mode;
        }
        return ring.lagging(m.node(), m.to());
    }

    private static String progress(List<PlannedMove> moves, int failed) {
        StringBuilder b = new StringBuilder();
        b.append(
                failed == 0
                        ? "no move was applied before it"
                        : "applied before it: " + describe(moves.subList(0, failed)));
        if (failed + 1 < moves.size()) {
            b.append("; not attempted: ").append(describe(moves.subList(failed + 1, moves.size())));
        }
        return b.toString();
    }

    private static String describe(List<PlannedMove> moves) {
        List<String> s = new ArrayList<>();
        moves.forEach(m -> s.add(m.node() + " -> " + m.to()));
        return String.join(", ", s);
    }

    /** The message Cassandra gave, unwrapped from JMX's MBeanException / RuntimeMBeanException. */
    static String cassandraMessage(Throwable t) {
        Throwable c = t;
        while (true) {
            Throwable next = c instanceof MBeanException me
                    ? me.getTargetException()
                    : c instanceof RuntimeMBeanException re ? re.getTargetException() : null;
            if (next == null || next == c) {
                break;
            }
            c = next;
        }
        String msg = c.getMessage();
        return c.getClass().getSimpleName() + (msg == null ? "" : ": " + msg);
    }

    private MBeanServerConnection connection(String node) {
        JMXConnector existing = connectors.get(node);
        try {
            if (existing != null) {
                return existing.getMBeanServerConnection();
            }
        } catch (IOException e) {
            connectors.remove(node);
        }
        InetSocketAddress at = endpoints.of(node);
        String hostPort = at.getHostString() + ":" + at.getPort();
        String host = at.getHostString().contains(":") ? "[" + at.getHostString() + "]" : at.getHostString();
        try {
            JMXServiceURL url =
                    new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + at.getPort() + "/jmxrmi");
            JMXConnector c = CompletableFuture.supplyAsync(() -> {
                        try {
                            return JMXConnectorFactory.connect(url);
                        } catch (IOException e) {
                            throw new MoveCallException(e);
                        }
                    })
                    .get(CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            connectors.put(node, c);
            return c.getMBeanServerConnection();
        } catch (ExecutionException e) {
            Throwable c = e.getCause() instanceof MoveCallException mc ? mc.getCause() : e.getCause();
            String why = c instanceof SecurityException
                    ? "it asks for credentials (" + c.getMessage()
                            + "); --execute supports JMX without authentication only"
                    : rootMessage(c);
            throw new MoveFailure(unreachable(node, hostPort, why), c);
        } catch (TimeoutException e) {
            throw new MoveFailure(
                    unreachable(node, hostPort, "no answer within " + CONNECT_TIMEOUT.toSeconds() + " s"), e);
        } catch (IOException e) {
            throw new MoveFailure(unreachable(node, hostPort, rootMessage(e)), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoveFailure("interrupted while connecting to JMX of node " + node + " at " + hostPort, e);
        }
    }

    private static String unreachable(String node, String hostPort, String why) {
        return "cannot reach the JMX of node " + node + " at " + hostPort + ": " + why
                + ". Nothing was moved. --execute"
                + " calls StorageService.move through JMX, as nodetool does: Cassandra's cassandra-env.sh enables JMX on"
                + " JMX_PORT (default 7199) for local connections only (LOCAL_JMX=yes, -Dcassandra.jmx.local.port, bound to"
                + " 127.0.0.1); run this on the node's machine, or set LOCAL_JMX=no (remote JMX, -Dcassandra.jmx.remote.port)"
                + " in that node's cassandra-env.sh. Give other ports with --jmx-port, or per node with --jmx NODE=[HOST:]PORT";
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
    }

    private static List<String> tokens(MBeanServerConnection mbs, String node) {
        List<String> out = new ArrayList<>();
        for (Object o : (List<?>) attribute(mbs, node, "Tokens")) {
            out.add(String.valueOf(o));
        }
        return out;
    }

    private static String mode(MBeanServerConnection mbs, String node) {
        return String.valueOf(attribute(mbs, node, "OperationMode"));
    }

    private static Object attribute(MBeanServerConnection mbs, String node, String name) {
        try {
            return mbs.getAttribute(STORAGE_SERVICE, name);
        } catch (Exception e) {
            throw new MoveFailure(
                    "reading StorageService." + name + " of node " + node + " through JMX failed: "
                            + cassandraMessage(e),
                    e);
        }
    }

    private static String safeMode(MBeanServerConnection mbs) {
        try {
            return String.valueOf(mbs.getAttribute(STORAGE_SERVICE, "OperationMode"));
        } catch (Exception e) {
            return "(mode unknown: " + rootMessage(e) + ")";
        }
    }

    private static String safeTokens(MBeanServerConnection mbs) {
        try {
            return String.valueOf(mbs.getAttribute(STORAGE_SERVICE, "Tokens"));
        } catch (Exception e) {
            return "(unknown: " + rootMessage(e) + ")";
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoveFailure("interrupted while waiting for a move to settle", e);
        }
    }

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public void close() {
        for (JMXConnector c : connectors.values()) {
            try {
                c.close();
            } catch (IOException ignored) {
                // Closing a connection to a node that went away: nothing left to release on our side.
            }
        }
        connectors.clear();
    }

    /** Carries a checked exception out of an async call. */
    private static final class MoveCallException extends RuntimeException {
        MoveCallException(Exception cause) {
            super(cause);
        }
    }
}
