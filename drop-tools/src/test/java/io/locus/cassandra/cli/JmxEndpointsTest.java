package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class JmxEndpointsTest {
    @Test
    void defaultPortOnTheNodesAddress_overridesByPortOrHostAndPort() {
        JmxEndpoints e = JmxEndpoints.parse(7199, List.of("127.0.0.2=7200", "127.0.0.3=127.0.0.1:7300"));
        assertEquals(InetSocketAddress.createUnresolved("10.0.0.1", 7199), e.of("10.0.0.1"));
        assertEquals(InetSocketAddress.createUnresolved("127.0.0.2", 7200), e.of("127.0.0.2"));
        assertEquals(InetSocketAddress.createUnresolved("127.0.0.1", 7300), e.of("127.0.0.3"));
        assertEquals(List.of("127.0.0.3"), e.unknownNodes(List.of("127.0.0.1", "127.0.0.2")));
    }

    @Test
    void malformedSpecs_areRejectedWithTheSpecInTheMessage() {
        for (String bad :
                List.of("127.0.0.2", "=7200", "127.0.0.2=", "127.0.0.2=x", "127.0.0.2=70000", "127.0.0.2=:7200")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> JmxEndpoints.parse(7199, List.of(bad)), bad);
            assertTrue(e.getMessage().contains("--jmx " + bad), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> JmxEndpoints.parse(0, List.of()));
        IllegalArgumentException twice =
                assertThrows(IllegalArgumentException.class, () -> JmxEndpoints.parse(7199, List.of("a=1", "a=2")));
        assertEquals("--jmx names node a twice", twice.getMessage());
    }
}
