package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import javax.management.MBeanException;
import javax.management.RuntimeMBeanException;
import org.junit.jupiter.api.Test;

class MoveExecutorTest {
    @Test
    void unreachableJmx_failsBeforeAnyMove_namingHostPortAndTheSetting() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        JmxEndpoints endpoints = JmxEndpoints.parse(7199, List.of("127.0.0.2=127.0.0.1:" + closedPort));
        try (MoveExecutor ex = new MoveExecutor(endpoints, Duration.ofSeconds(5), (n, t) -> null)) {
            MoveExecutor.MoveFailure f = assertThrows(
                    MoveExecutor.MoveFailure.class,
                    () -> ex.preflight(List.of(new MoveExecutor.PlannedMove("127.0.0.2", "aa", "bb"))));
            String m = f.getMessage();
            assertTrue(m.startsWith("cannot reach the JMX of node 127.0.0.2 at 127.0.0.1:" + closedPort + ": "), m);
            assertTrue(
                    m.contains("Nothing was moved") && m.contains("LOCAL_JMX") && m.contains("--jmx NODE=[HOST:]PORT"),
                    m);
        }
    }

    @Test
    void cassandraMessage_unwrapsJmxWrappers() {
        Exception wrapped =
                new MBeanException(new java.io.IOException("target token 00ff is already owned by another node."));
        assertEquals(
                "IOException: target token 00ff is already owned by another node.",
                MoveExecutor.cassandraMessage(wrapped));
        Exception runtime =
                new RuntimeMBeanException(new UnsupportedOperationException("This node has more than one token"));
        assertEquals(
                "UnsupportedOperationException: This node has more than one token",
                MoveExecutor.cassandraMessage(runtime));
    }
}
