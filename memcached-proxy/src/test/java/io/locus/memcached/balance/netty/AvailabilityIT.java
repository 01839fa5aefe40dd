package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.RawClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replication for availability ({@code replication_factor: 2}) against 4 real memcached servers: a killed backend
 * loses no item, writes go on while it is down, and once it is back (empty) the proxy warms it, so that a second
 * backend can die afterwards without loss either.
 */
class AvailabilityIT {
    static final Path DIR = Path.of("target", "it", "availability");
    static final int KEYS = 1000;

    @Test
    void killedBackend_losesNoItem_andIsWarmedOnReturn() throws Exception {
        try (MemcachedServers backends = MemcachedServers.start(4, MemcachedConfig.DEFAULTS.withThreads(1), DIR)) {
            try (BalanceIT.Proxy proxy = BalanceIT.Proxy.start(backends, "replication_factor: 2\n");
                    RawClient c = new RawClient(proxy.address())) {
                String[] values = new String[KEYS];
                for (int i = 0; i < KEYS; i++) {
                    values[i] = "a" + i;
                    assertEquals("STORED\r\n", set(c, key(i), values[i]));
                }
                long items = 0;
                for (int b = 0; b < 4; b++) {
                    items += Long.parseLong(backends.get(b).stats().get("curr_items"));
                }
                assertEquals(2L * KEYS, items, "every item is on two backends (memcached's own curr_items)");

                backends.get(1).kill();
                assertEquals(List.of(), misses(c, values), "reads while backend 1 is dead");
                for (int i = 0; i < KEYS; i += 5) {
                    values[i] = "b" + i;
                    assertEquals("STORED\r\n", set(c, key(i), values[i]), "write while backend 1 is dead");
                }
                assertEquals(List.of(), misses(c, values), "reads after writes while backend 1 is dead");
                assertEquals("down", BalanceIT.lb(proxy).get("lb:avail:backend:1:state"));

                backends.get(1).restart();
                long deadline = System.nanoTime() + 60_000_000_000L;
                Map<String, String> lb = BalanceIT.lb(proxy);
                while (!"up".equals(lb.get("lb:avail:backend:1:state")) && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                    lb = BalanceIT.lb(proxy);
                }
                assertEquals("up", lb.get("lb:avail:backend:1:state"), "backend 1 warmed: " + lb);
                long warmed = Long.parseLong(lb.get("lb:avail:warmed_keys"));
                long onOne = Long.parseLong(backends.get(1).stats().get("curr_items"));
                System.out.println("LOCUS-IT availability: backend 1 warmed with " + warmed + " keys, holds " + onOne
                        + " items; " + lb);
                assertTrue(warmed > KEYS / 4, "backend 1 got its copies back: " + warmed);
                assertEquals(warmed, onOne, "what was warmed is what backend 1 holds");

                backends.get(2).kill(); // keys whose copies are {1, 2} now live only on the warmed backend 1
                assertEquals(List.of(), misses(c, values), "reads with backend 2 dead after backend 1 was warmed");
            }
        }
    }

    static String key(int i) {
        return BalanceIT.key(100_000 + i);
    }

    static String set(RawClient c, String k, String v) throws java.io.IOException {
        return BalanceIT.exchange(c, "set " + k + " 0 0 " + v.length() + "\r\n" + v + "\r\n", "\r\n");
    }

    /** Keys whose read does not return the value last written. */
    static List<String> misses(RawClient c, String[] values) throws java.io.IOException {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            String got = BalanceIT.exchange(c, "get " + key(i) + "\r\n", "END\r\n");
            String expected = "VALUE " + key(i) + " 0 " + values[i].length() + "\r\n" + values[i] + "\r\nEND\r\n";
            if (!got.equals(expected)) {
                wrong.add(key(i) + "=" + got.trim().replace("\r\n", "|"));
            }
        }
        return wrong.size() > 10 ? List.of(wrong.size() + " keys, e.g. " + wrong.subList(0, 10)) : wrong;
    }
}
