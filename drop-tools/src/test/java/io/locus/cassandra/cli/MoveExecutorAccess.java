package io.locus.cassandra.cli;

import java.time.Duration;
import java.util.List;

/** Lets ITs in other packages drive the package-private {@link MoveExecutor} against real nodes. */
public final class MoveExecutorAccess {
    private MoveExecutorAccess() {}

    /**
     * Moves {@code node} from {@code from} to {@code to} through JMX at {@code jmxHost:jmxPort} and returns the failure
     * message.
     *
     * @throws AssertionError if the move succeeds
     */
    public static String failureOf(String node, String jmxHost, int jmxPort, String from, String to) {
        JmxEndpoints endpoints = JmxEndpoints.parse(7199, List.of(node + "=" + jmxHost + ":" + jmxPort));
        List<MoveExecutor.PlannedMove> moves = List.of(new MoveExecutor.PlannedMove(node, from, to));
        try (MoveExecutor ex = new MoveExecutor(endpoints, Duration.ofMinutes(2), (n, t) -> null)) {
            ex.preflight(moves);
            ex.execute(moves);
        } catch (MoveExecutor.MoveFailure f) {
            return f.getMessage();
        }
        throw new AssertionError("moving " + node + " to " + to + " succeeded (expected: Cassandra refuses it)");
    }
}
