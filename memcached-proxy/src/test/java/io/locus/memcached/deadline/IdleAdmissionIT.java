package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import io.locus.memcached.testing.SlowRelay;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Admission judges a read by how busy its backend is now, not by how long replies took while it was busy. A real
 * memcached behind a {@link SlowRelay} serving one request per 5 ms first gets batches of eight pipelined best-effort
 * reads, whose replies come 5 to 40 ms after their dispatch. Then hard reads with a 15 ms deadline arrive one at a
 * time on an idle backend (predicted one service, 5 ms: admitted) and, last, each behind a batch of eight
 * (predicted eight in flight plus its own service, 45 ms: refused). Counts of replies, no time limits.
 */
class IdleAdmissionIT {
    static MemcachedServers servers;
    static final Path DIR = Path.of("target", "it", "idle-admission");
    static final long SERVICE_NANOS = 5_000_000;
    static final int BATCH = 8;
    static final int ROUNDS = 20;
    static final Pattern VALUE = Pattern.compile("VA 10\r\n0123456789\r\n");
    static final Pattern REFUSED = Pattern.compile("SERVER_ERROR deadline reject est=[0-9]+\r\n");

    @BeforeAll
    static void start() {
        servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, DIR);
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    private static int count(Pattern p, String s) {
        Matcher m = p.matcher(s);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static String batch(String tail) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < BATCH; i++) {
            b.append("mg item:").append(i).append(" v L~1s\r\n");
        }
        return b.append(tail).append("mn\r\n").toString();
    }

    private static String exchange(RawClient c, String script) throws Exception {
        c.send(script);
        return new String(c.readUntilEndsWith(RawClient.bytes("MN\r\n")), StandardCharsets.ISO_8859_1);
    }

    @Test
    void idleBackendAdmitsWhatItsServiceTimeAllows_busyBackendRefuses() throws Exception {
        try (RawClient direct = new RawClient(servers.get(0).address())) {
            StringBuilder sets = new StringBuilder();
            for (int i = 0; i < BATCH; i++) {
                sets.append("set item:").append(i).append(" 0 0 10\r\n0123456789\r\n");
            }
            direct.exchange(sets.toString());
        }
        String yaml = "io_threads: 1\nbackend:\n  conns: 1\nlocal:\n  mode: \"off\"\nadmission:\n  guard: 1ms\n";
        try (SlowRelay relay = new SlowRelay(servers.get(0).address(), SERVICE_NANOS);
                ProxyUnderTest proxy = ProxyUnderTest.withDeadlines(List.of(relay.address()), yaml);
                RawClient c = new RawClient(proxy.address)) {
            int taught = 0;
            for (int r = 0; r < ROUNDS; r++) { // 160 samples: past the model's cold start
                taught += count(VALUE, exchange(c, batch("")));
            }
            assertEquals(ROUNDS * BATCH, taught, "best-effort reads are never refused");

            int idleAdmitted = 0;
            int idleRefused = 0;
            for (int r = 0; r < ROUNDS; r++) {
                String reply = exchange(c, "mg item:0 v L15ms\r\nmn\r\n");
                idleAdmitted += count(VALUE, reply);
                idleRefused += count(REFUSED, reply);
            }

            int busyAdmitted = 0;
            int busyRefused = 0;
            for (int r = 0; r < ROUNDS; r++) {
                String reply = exchange(c, batch("mg item:1 v L15ms\r\n"));
                busyAdmitted += count(VALUE, reply) - BATCH;
                busyRefused += count(REFUSED, reply);
            }
            System.out.printf(
                    "idle-admission: idle backend %d admitted, %d refused; behind %d in flight %d admitted, %d refused;"
                            + " stats backends %s%n",
                    idleAdmitted,
                    idleRefused,
                    BATCH,
                    busyAdmitted,
                    busyRefused,
                    c.exchange("stats backends\r\n").replace("\r\n", "; "));
            assertTrue(
                    idleAdmitted >= ROUNDS * 9 / 10,
                    "an idle backend serving one read per 5 ms admits 15 ms reads: " + idleAdmitted + " of " + ROUNDS);
            assertTrue(
                    busyRefused >= ROUNDS * 9 / 10,
                    "eight reads in flight ahead of a 15 ms read refuse it: " + busyRefused + " of " + ROUNDS);
        }
    }
}
