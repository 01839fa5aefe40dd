package io.locus.memcached.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServer;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code backend.timeout} bounds every request, a lone one on an idle connection as well as pipelined ones, in both
 * modes: one real memcached is frozen with SIGSTOP (the kernel still accepts its connections and requests, nothing
 * answers), and the proxy's reply must arrive while it is still frozen. A multi-get with a key on the frozen backend
 * answers the error, never a silent miss; the other backend's clients are served meanwhile.
 */
class BackendTimeoutIT {
    static final Path DIR = Path.of("target", "it", "backend-timeout");
    static final long TIMEOUT_MILLIS = 500;
    static final int PIPELINE = 24;

    @ParameterizedTest
    @ValueSource(strings = {"pass_through", "full", "full+busy_poll"})
    void frozenBackend_loneAndPipelinedRequestsTimeOut_othersServe(String mode) throws Exception {
        try (MemcachedServers servers = MemcachedServers.start(2, MemcachedConfig.DEFAULTS, DIR.resolve(mode));
                ProxyUnderTest proxy = start(mode, servers);
                RawClient frozenSide = new RawClient(proxy.address);
                RawClient liveSide = new RawClient(proxy.address)) {
            String onFrozen = keyOn(proxy, 0);
            String onLive = keyOn(proxy, 1);
            assertEquals(
                    "STORED\r\nSTORED\r\n",
                    liveSide.exchange("set " + onFrozen + " 0 0 1\r\na\r\nset " + onLive + " 0 0 1\r\nb\r\n"));
            long timeoutsBefore = Long.parseLong(proxy.stats().get("locus_backend_timeouts"));
            MemcachedServer frozen = servers.get(0);
            signal("STOP", frozen.pid());
            awaitAllThreadsStopped(frozen.pid());
            try {
                // A lone get on an otherwise idle proxy: only the proxy's own timer can answer it.
                long start = System.nanoTime();
                frozenSide.send("get " + onFrozen + "\r\n");
                String lone = read(frozenSide);
                long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertEquals("SERVER_ERROR backend timeout\r\n", lone, mode + ": a lone get to the frozen backend");
                assertTrue(frozen.isAlive(), "the backend is still there, frozen, when the reply arrives");
                assertTrue(
                        elapsedMillis < 5 * TIMEOUT_MILLIS,
                        mode + ": the timeout error came " + elapsedMillis + " ms after the get (backend.timeout "
                                + TIMEOUT_MILLIS + " ms)");
                assertTrue(
                        Long.parseLong(proxy.stats().get("locus_backend_timeouts")) > timeoutsBefore,
                        "counted as a backend timeout");

                // Pipelined: a get, a multi-get with one key on each backend, a gets, then gets of further keys on
                // the frozen backend, more than full mode's dispatch window (sched.window 8); every one answers the
                // error.
                StringBuilder pipeline = new StringBuilder(
                        "get " + onFrozen + "\r\nget " + onLive + " " + onFrozen + "\r\ngets " + onFrozen + "\r\n");
                for (String k : keysOn(proxy, 0, PIPELINE - 3)) {
                    pipeline.append("get ").append(k).append("\r\n");
                }
                long pipelineStart = System.nanoTime();
                frozenSide.send(pipeline.toString());
                // Meanwhile the other backend serves its clients.
                assertEquals(
                        "VALUE " + onLive + " 0 1\r\nb\r\nEND\r\n",
                        liveSide.exchange("get " + onLive + "\r\n"),
                        mode + ": a get to the live backend while the other is frozen");
                String pipelined = readLines(frozenSide, PIPELINE);
                long pipelineMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pipelineStart);
                assertEquals(
                        "SERVER_ERROR backend timeout\r\n".repeat(PIPELINE),
                        pipelined,
                        mode + ": pipelined requests, the multi-get answering the error rather than a miss");
                assertTrue(frozen.isAlive(), "the backend is still there, frozen, when the replies arrive");
                assertTrue(
                        pipelineMillis < 5 * TIMEOUT_MILLIS,
                        mode + ": the last of " + PIPELINE + " pipelined errors came " + pipelineMillis
                                + " ms after they were sent (backend.timeout " + TIMEOUT_MILLIS + " ms)");
            } finally {
                signal("CONT", frozen.pid());
            }
            // Thawed, the backend serves again (the proxy reconnects on the next request).
            String after = "";
            for (int i = 0; i < 250 && !after.startsWith("VALUE"); i++) {
                if (i > 0) {
                    Thread.sleep(20);
                }
                after = frozenSide.exchange("get " + onFrozen + " " + onLive + "\r\n");
            }
            assertEquals("VALUE " + onFrozen + " 0 1\r\na\r\nVALUE " + onLive + " 0 1\r\nb\r\nEND\r\n", after);
        }
    }

    /** {@code mode}, or {@code mode+busy_poll}: the I/O threads poll before sleeping, and timers must still fire. */
    private static ProxyUnderTest start(String mode, MemcachedServers servers) {
        String yaml = "mode: " + mode.replace("+busy_poll", "") + "\nbackend: {timeout: " + TIMEOUT_MILLIS
                + "ms, retry_interval: 50ms}\n" + (mode.endsWith("+busy_poll") ? "server: {busy_poll_us: 200}\n" : "");
        return mode.startsWith("full")
                ? ProxyUnderTest.withDeadlines(servers.addresses(), yaml)
                : new ProxyUnderTest(servers.addresses(), yaml);
    }

    /** A key the proxy places on backend {@code index}. */
    static String keyOn(ProxyUnderTest proxy, int index) {
        return keysOn(proxy, index, 1).get(0);
    }

    /** The first {@code n} keys {@code t0, t1, ...} the proxy places on backend {@code index}. */
    static java.util.List<String> keysOn(ProxyUnderTest proxy, int index, int n) {
        java.util.List<String> keys = new java.util.ArrayList<>();
        for (int i = 0; keys.size() < n; i++) {
            String k = "t" + i;
            if (proxy.server.ring().serverFor(k) == index) {
                keys.add(k);
            }
        }
        return keys;
    }

    /** Sends {@code kill -<name> <pid>} to a process this test started. */
    static void signal(String name, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid))
                .inheritIO()
                .start();
        assertEquals(0, kill.waitFor(), "kill -" + name + " " + pid);
    }

    /**
     * Waits until every thread of {@code pid} is in state T. kill(2) returns once SIGSTOP is queued; a thread running
     * on another (possibly descheduled) vCPU stops only when it next enters the kernel, and until then it may still
     * answer a request.
     */
    static void awaitAllThreadsStopped(long pid) throws IOException, InterruptedException {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            boolean allStopped = true;
            try (var threads = Files.list(tasks)) {
                for (Path task : (Iterable<Path>) threads::iterator) {
                    String stat = Files.readString(task.resolve("stat"), StandardCharsets.ISO_8859_1);
                    // The state follows the command name in parentheses, which may itself hold spaces.
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    allStopped &= state == 'T' || state == 't';
                }
            }
            if (allStopped) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "pid " + pid + " not stopped 30 s after SIGSTOP");
            Thread.sleep(1);
        }
    }

    private static String read(RawClient c) throws IOException {
        return readLines(c, 1);
    }

    /** Reads replies of one line each until {@code n} lines arrived (fails after the client's socket timeout). */
    private static String readLines(RawClient c, int n) throws IOException {
        StringBuilder got = new StringBuilder();
        while (got.toString().split("\r\n", -1).length - 1 < n) {
            got.append(new String(c.readUntilEndsWith(RawClient.bytes("\r\n")), StandardCharsets.ISO_8859_1));
        }
        return got.toString();
    }
}
