package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.fixture.Nutcracker;
import io.locus.memcached.testing.RawClient;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Keys land on the same memcached server through Locus's ring as through a real nutcracker (ketama, fnv1a_64): keys
 * are written through nutcracker, found on the real servers by direct gets, and compared with {@link KetamaRing}.
 */
class NutcrackerPlacementIT {
    static final long SEED = 20261122L;
    static final int KEYS = 3000;

    @Test
    void ketamaFnv1a64_placesEveryKeyWhereNutcrackerDoes_weightedAndNamed() throws Exception {
        Path dir = Path.of("target", "it", "nutcracker-placement");
        int[] weights = {1, 2, 1, 3};
        try (MemcachedServers servers = MemcachedServers.start(4, MemcachedConfig.DEFAULTS, dir)) {
            Nutcracker.Builder b = Nutcracker.builder(dir);
            List<KetamaRing.Server> ringServers = new ArrayList<>();
            for (int i = 0; i < servers.size(); i++) {
                MemcachedServer s = servers.get(i);
                b.server(s.address(), weights[i], s.name());
                ringServers.add(new KetamaRing.Server(s.host(), s.port(), weights[i], s.name()));
            }
            KetamaRing ring = new KetamaRing(ringServers);
            List<String> keys = keys();
            try (Nutcracker nc = b.start();
                    RawClient client = new RawClient(nc.address())) {
                ByteArrayOutputStream script = new ByteArrayOutputStream();
                for (String k : keys) {
                    script.write(RawClient.bytes("set " + k + " 0 0 1\r\nx\r\n"));
                }
                client.send(script.toByteArray());
                byte[] replies = client.readUntilEndsWith(RawClient.bytes("STORED\r\n".repeat(1)));
                // Wait for all KEYS replies.
                int stored = count(replies);
                while (stored < keys.size()) {
                    byte[] more = client.readUntilEndsWith(RawClient.bytes("STORED\r\n"));
                    stored += count(more);
                }
            }
            Map<String, Integer> actual = new HashMap<>();
            for (int i = 0; i < servers.size(); i++) {
                try (RawClient direct = new RawClient(servers.get(i).address())) {
                    for (int from = 0; from < keys.size(); from += 100) {
                        String reply = direct.exchange("get "
                                + String.join(" ", keys.subList(from, Math.min(keys.size(), from + 100))) + "\r\n");
                        for (String line : reply.split("\r\n")) {
                            if (line.startsWith("VALUE ")) {
                                Integer previous = actual.put(line.split(" ")[1], i);
                                assertEquals(null, previous, "key " + line + " on two servers");
                            }
                        }
                    }
                }
            }
            assertEquals(keys.size(), actual.size(), "every key written through nutcracker is on some server");
            int mismatches = 0;
            StringBuilder first = new StringBuilder();
            int[] perServer = new int[servers.size()];
            for (String k : keys) {
                int mine = ring.serverFor(k);
                perServer[mine]++;
                if (mine != actual.get(k)) {
                    if (mismatches++ < 5) {
                        first.append(" ")
                                .append(k)
                                .append(": nutcracker ")
                                .append(actual.get(k))
                                .append(", locus ")
                                .append(mine);
                    }
                }
            }
            System.out.printf(
                    "placement: %d keys (seed %d), per server %s, mismatches %d%n",
                    keys.size(), SEED, java.util.Arrays.toString(perServer), mismatches);
            assertEquals(0, mismatches, "keys placed differently from nutcracker (seed " + SEED + "):" + first);
            assertTrue(perServer[3] > perServer[0], "weight 3 server holds more keys than weight 1");
        }
    }

    private static int count(byte[] replies) {
        String s = new String(replies, StandardCharsets.ISO_8859_1);
        int n = 0;
        for (int i = s.indexOf("STORED\r\n"); i >= 0; i = s.indexOf("STORED\r\n", i + 1)) {
            n++;
        }
        return n;
    }

    /** Printable keys of varied length plus keys with bytes >= 0x80 (nutcracker sign-extends them in fnv1a_64). */
    static List<String> keys() {
        Random rnd = new Random(SEED);
        java.util.Set<String> keys = new java.util.LinkedHashSet<>();
        for (int i = 0; keys.size() < KEYS; i++) {
            StringBuilder k = new StringBuilder("k");
            int len = 1 + rnd.nextInt(40);
            for (int j = 0; j < len; j++) {
                k.append(i % 3 == 0 ? (char) (0x80 + rnd.nextInt(0x7f)) : (char) ('!' + rnd.nextInt(94)));
            }
            keys.add(k.toString());
        }
        return new ArrayList<>(keys);
    }
}
