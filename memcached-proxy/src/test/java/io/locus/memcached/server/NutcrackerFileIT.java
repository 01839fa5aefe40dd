package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import io.locus.memcached.backend.KetamaRing;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import io.locus.memcached.fixture.Nutcracker;
import io.locus.memcached.testing.ProxyUnderTest;
import io.locus.memcached.testing.RawClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code locus-memcached-proxy --nutcracker FILE} (the shaded jar, as a user runs it) and a real nutcracker, both run
 * from the same fixture nutcracker.yml with its ports rewritten to free ones, in front of the same real memcached
 * servers: keys land on the same servers, a killed server's keys are re-homed where nutcracker re-homes them, and they
 * come back to it after {@code server_retry_timeout}; a file with a key the proxy cannot honour is refused at start-up.
 */
class NutcrackerFileIT {
    private static final Path DIR = Path.of("target", "it", "nutcracker-file");
    private static final Path FIXTURES = Path.of("src", "test", "resources", "nutcracker");
    private static final Pattern SERVER_EJECTS = Pattern.compile("\"server_ejects\":\\s*([0-9]+)");

    @Test
    void sameFile_sameKeyPlacementAsNutcracker_bothWays() throws Exception {
        Path dir = DIR.resolve("placement");
        try (MemcachedServers servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, dir)) {
            int ncPort = Ports.freeLoopbackPort();
            Path ncFile = rewrite("memcached-pools.yml", "web", ncPort, servers, dir.resolve("nutcracker.yml"), -1);
            int locusPort = Ports.freeLoopbackPort();
            Path locusFile = rewrite("memcached-pools.yml", "web", locusPort, servers, dir.resolve("locus.yml"), -1);
            try (Nutcracker nc = Nutcracker.fromFile(dir, ncFile, ncPort);
                    HostProcess locus = startProxy(dir, locusFile, "web", locusPort);
                    RawClient viaNc = new RawClient(nc.address());
                    RawClient viaLocus = new RawClient(loopback(locusPort))) {
                List<String> ncKeys = keys("nc", 1500);
                List<String> locusKeys = keys("locus", 1500);
                setThroughNutcracker(viaNc, ncKeys, "n");
                for (String k : locusKeys) {
                    assertEquals("STORED\r\n", viaLocus.exchange("set " + k + " 0 0 1\r\nl\r\n"), k);
                }
                // Each key is on one server only: a hit through the other proxy means it looked where the key is.
                assertEquals(ncKeys.size(), hits(getThroughLocus(viaLocus, ncKeys)), "keys set via nutcracker");
                assertEquals(locusKeys.size(), hits(getThroughNutcracker(viaNc, locusKeys)), "keys set via locus");
                Map<String, Integer> where = placement(servers, concat(ncKeys, locusKeys));
                assertEquals(ncKeys.size() + locusKeys.size(), where.size(), "every key on exactly one server");
                int[] perServer = new int[servers.size()];
                where.values().forEach(i -> perServer[i]++);
                for (int count : perServer) {
                    assertTrue(count > 300, "every server holds keys: " + java.util.Arrays.toString(perServer));
                }
                // A service manager's reload (SIGHUP) leaves a proxy run from the nutcracker file alone serving.
                Process hup = new ProcessBuilder("kill", "-HUP", Long.toString(locus.pid())).start();
                assertEquals(0, hup.waitFor(), "kill -HUP");
                assertEquals(1, hits(getThroughLocus(viaLocus, ncKeys.subList(0, 1))), "served after SIGHUP");
                assertTrue(locus.isAlive(), "alive after SIGHUP");
            }
        }
    }

    @Test
    void killedServer_isEjected_itsKeysGoWhereNutcrackerSendsThem_andReturnAfterTheRetryTimeout() throws Exception {
        Path dir = DIR.resolve("ejection");
        // The fixture's 2 s retry timeout is raised to 10 s here, so the checks made while the server is out fit in
        // its window however slow the host is; the test never waits for a fixed time.
        int retryMillis = 10_000;
        try (MemcachedServers servers = MemcachedServers.start(3, MemcachedConfig.DEFAULTS, dir)) {
            int ncPort = Ports.freeLoopbackPort();
            Path ncFile =
                    rewrite("memcached-pools.yml", "web", ncPort, servers, dir.resolve("nutcracker.yml"), retryMillis);
            int locusPort = Ports.freeLoopbackPort();
            Path locusFile =
                    rewrite("memcached-pools.yml", "web", locusPort, servers, dir.resolve("locus.yml"), retryMillis);
            List<KetamaRing.Server> ring = new ArrayList<>();
            for (String line : List.of("web-a", "web-b", "web-c")) {
                int i = ring.size();
                ring.add(new KetamaRing.Server("127.0.0.1", servers.get(i).port(), i == 1 ? 2 : 1, line));
            }
            KetamaRing full = new KetamaRing(ring);
            KetamaRing withoutB = new KetamaRing(List.of(ring.get(0), ring.get(2)));
            List<String> all = keys("e", 600);
            List<String> onB = all.stream().filter(k -> full.serverFor(k) == 1).toList();
            assertTrue(onB.size() > 100, "web-b (weight 2) homes about half the keys: " + onB.size());
            try (Nutcracker nc = Nutcracker.fromFile(dir, ncFile, ncPort);
                    HostProcess locus = startProxy(dir, locusFile, "web", locusPort);
                    RawClient viaLocus = new RawClient(loopback(locusPort))) {
                for (String k : all) {
                    assertEquals("STORED\r\n", viaLocus.exchange("set " + k + " 0 0 2\r\nv1\r\n"), k);
                }
                servers.get(1).kill();
                // server_failure_limit is 2: requests for web-b's keys fail until two failures are counted.
                int errorsBefore = driveUntilEjected(viaLocus, onB.get(0), () -> proxyEjects(locusPort));
                assertTrue(errorsBefore >= 1 && errorsBefore <= 3, "errors before the ejection: " + errorsBefore);
                try (RawClient ncClient = new RawClient(nc.address())) {
                    driveNutcrackerUntilEjected(ncClient, onB.get(0), nc);
                }
                // Out of the ring: no request fails, and web-b's keys live where the ring without web-b puts them.
                for (String k : onB) {
                    assertEquals("STORED\r\n", viaLocus.exchange("set " + k + " 0 0 2\r\nv2\r\n"), k);
                }
                Map<String, Integer> where = placement(servers, onB);
                for (String k : onB) {
                    int expected = withoutB.serverFor(k) == 0 ? 0 : 2;
                    assertEquals(expected, where.get(k), k + " re-homed as ketama without web-b places it");
                }
                try (RawClient viaNc = new RawClient(nc.address())) {
                    String got = getThroughNutcracker(viaNc, onB);
                    assertEquals(onB.size(), hits(got), "nutcracker, web-b ejected too, finds them all");
                    assertEquals(onB.size(), count(got, " 0 2\r\nv2\r\n"));
                }
                // The ring of the live servers gives web-a and web-c more points each (nutcracker computes them for
                // two servers now), so a few of their own keys change hands too: both proxies miss exactly those.
                List<String> notOnB = all.stream().filter(k -> !onB.contains(k)).toList();
                List<String> stay = notOnB.stream()
                        .filter(k -> full.serverFor(k) == (withoutB.serverFor(k) == 0 ? 0 : 2))
                        .toList();
                String viaLocusOthers = getThroughLocus(viaLocus, notOnB);
                try (RawClient viaNc = new RawClient(nc.address())) {
                    String viaNcOthers = getThroughNutcracker(viaNc, notOnB);
                    for (String k : notOnB) {
                        boolean hit = stay.contains(k);
                        String value = "VALUE " + k + " 0 2\r\nv1\r\n";
                        assertEquals(hit, viaLocusOthers.contains(value), k + " through locus-proxy");
                        assertEquals(hit, viaNcOthers.contains(value), k + " through nutcracker");
                    }
                }
                assertTrue(stay.size() > notOnB.size() / 2, "most keys of web-a and web-c stay: " + stay.size());
                assertEquals("1", ProxyUnderTest.stats(loopback(locusPort), "").get("locus_servers_ejected"));

                // Back after server_retry_timeout: web-b's keys route to it again.
                servers.get(1).restart();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(retryMillis / 1000 + 60);
                String probe = onB.get(0);
                boolean back = false;
                while (!back && System.nanoTime() < deadline) {
                    viaLocus.exchange("set " + probe + " 0 0 2\r\nv3\r\n");
                    // web-a still holds the copy written while web-b was out (nutcracker copies nothing back).
                    back = directValues(servers.get(1).address(), List.of(probe))
                            .containsKey(probe);
                    if (!back) {
                        Thread.sleep(200);
                    }
                }
                assertTrue(back, "web-b back in the ring within the retry timeout plus 60 s");
                for (String k : onB) {
                    assertEquals("STORED\r\n", viaLocus.exchange("set " + k + " 0 0 2\r\nv3\r\n"), k);
                }
                Map<String, String> onServerB = directValues(servers.get(1).address(), onB);
                assertEquals(onB.size(), onServerB.size(), "every key of web-b is written to web-b again");
                assertTrue(proxyEjects(locusPort) >= 1, "server_ejects counts the ejection");
                assertEquals("0", ProxyUnderTest.stats(loopback(locusPort), "").get("locus_servers_ejected"));
            }
        }
    }

    @Test
    void unsupportedPool_exitsWith2_namingFilePoolAndKey() throws Exception {
        Path file = FIXTURES.resolve("unsupported-pools.yml");
        Result murmur = runProxy(List.of("--nutcracker", file.toString(), "--pool", "murmur"));
        assertEquals(2, murmur.exit, murmur.output);
        assertTrue(
                murmur.output.contains("locus-memcached-proxy: " + file
                        + ": pool \"murmur\": hash: murmur is not supported (supported: fnv1a_64)"),
                murmur.output);
        Result socket = runProxy(List.of("--nutcracker", file.toString(), "--pool", "socket", "--check"));
        assertEquals(2, socket.exit, socket.output);
        assertTrue(
                socket.output.contains(": pool \"socket\": listen: /tmp/gamma is not supported (supported: host:port;"
                        + " not a unix socket)"),
                socket.output);
        Path two = FIXTURES.resolve("memcached-pools.yml");
        Result noPool = runProxy(List.of("--nutcracker", two.toString(), "--check"));
        assertEquals(2, noPool.exit, noPool.output);
        assertTrue(
                noPool.output.contains(two + ": 2 pools (web, sessions): choose one with --pool NAME"), noPool.output);
        Result ok = runProxy(List.of("--nutcracker", two.toString(), "--pool", "sessions", "--check"));
        assertEquals(0, ok.exit, ok.output);
        assertTrue(ok.output.contains("configuration OK: 1 listeners, 2 backends"), ok.output);
    }

    /** A copy of one pool of a fixture file, listening on {@code port}, its servers on {@code servers}' ports. */
    @SuppressWarnings("unchecked")
    private static Path rewrite(String fixture, String pool, int port, MemcachedServers servers, Path out, int retryMs)
            throws IOException {
        Map<String, Object> pools = new Yaml().load(Files.readString(FIXTURES.resolve(fixture)));
        Map<String, Object> p = new LinkedHashMap<>((Map<String, Object>) pools.get(pool));
        p.put("listen", "127.0.0.1:" + port);
        List<String> lines = new ArrayList<>();
        List<String> original = (List<String>) p.get("servers");
        for (int i = 0; i < original.size(); i++) {
            String[] words = original.get(i).trim().split("\\s+");
            String[] hpw = words[0].split(":");
            lines.add("127.0.0.1:" + servers.get(i).port() + ":" + hpw[2] + (words.length > 1 ? " " + words[1] : ""));
        }
        p.put("servers", lines);
        if (retryMs > 0) {
            p.put("server_retry_timeout", retryMs);
        }
        DumperOptions style = new DumperOptions();
        style.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Files.createDirectories(out.getParent());
        Files.writeString(out, new Yaml(style).dump(Map.of(pool, p)));
        return out;
    }

    private static HostProcess startProxy(Path dir, Path nutcrackerFile, String pool, int port) throws Exception {
        List<String> command = new ArrayList<>(javaJar());
        command.addAll(List.of("--nutcracker", nutcrackerFile.toString(), "--pool", pool));
        HostProcess p = HostProcess.start("locus-proxy", command, dir.resolve("locus-" + port + ".log"));
        try {
            Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(30), p);
        } catch (RuntimeException | Error e) {
            p.close();
            throw e;
        }
        return p;
    }

    private record Result(int exit, String output) {}

    private static Result runProxy(List<String> args) throws Exception {
        List<String> command = new ArrayList<>(javaJar());
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the proxy exits: " + out);
        return new Result(p.exitValue(), out);
    }

    private static List<String> javaJar() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(HostProcess.privateTmpJvmOption());
        command.addAll(List.of("-jar", RunnableJarIT.jar().toString()));
        return command;
    }

    /** Gets {@code key} through the proxy until it has ejected a server; returns the errors seen before. */
    private static int driveUntilEjected(RawClient client, String key, IoLong ejects) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int errors = 0;
        while (ejects.get() == 0) {
            assertTrue(System.nanoTime() < deadline, "no ejection within 60 s; errors so far " + errors);
            String reply = client.exchange("get " + key + "\r\n");
            if (reply.startsWith("SERVER_ERROR")) {
                errors++;
            }
        }
        return errors;
    }

    private static void driveNutcrackerUntilEjected(RawClient client, String key, Nutcracker nc) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (nutcrackerEjects(nc) == 0) {
            assertTrue(System.nanoTime() < deadline, "nutcracker ejected nothing within 60 s");
            client.send("get " + key + "\r\n");
            client.readAvailable(500);
        }
    }

    private interface IoLong {
        long get() throws IOException;
    }

    private static long proxyEjects(int port) throws IOException {
        return Long.parseLong(ProxyUnderTest.stats(loopback(port), "").get("server_ejects"));
    }

    private static long nutcrackerEjects(Nutcracker nc) {
        Matcher m = SERVER_EJECTS.matcher(nc.statsJson());
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    private static void setThroughNutcracker(RawClient c, List<String> keys, String value) throws IOException {
        for (int from = 0; from < keys.size(); from += 100) {
            List<String> batch = keys.subList(from, Math.min(keys.size(), from + 100));
            StringBuilder sb = new StringBuilder();
            batch.forEach(k -> sb.append("set ")
                    .append(k)
                    .append(" 0 0 1\r\n")
                    .append(value)
                    .append("\r\n"));
            c.send(sb.toString());
            String replies = readLines(c, batch.size());
            assertEquals("STORED\r\n".repeat(batch.size()), replies, "sets through nutcracker");
        }
    }

    private static String readLines(RawClient c, int n) throws IOException {
        StringBuilder got = new StringBuilder();
        while (count(got.toString(), "\r\n") < n) {
            got.append(new String(c.readUntilEndsWith(RawClient.bytes("\r\n")), StandardCharsets.ISO_8859_1));
        }
        return got.toString();
    }

    private static String getThroughNutcracker(RawClient c, List<String> keys) throws IOException {
        StringBuilder all = new StringBuilder();
        for (int from = 0; from < keys.size(); from += 100) {
            c.send("get " + String.join(" ", keys.subList(from, Math.min(keys.size(), from + 100))) + "\r\n");
            all.append(new String(c.readUntilEndsWith(RawClient.bytes("END\r\n")), StandardCharsets.ISO_8859_1));
        }
        return all.toString();
    }

    private static String getThroughLocus(RawClient c, List<String> keys) throws IOException {
        StringBuilder all = new StringBuilder();
        for (int from = 0; from < keys.size(); from += 100) {
            all.append(c.exchange("get " + String.join(" ", keys.subList(from, Math.min(keys.size(), from + 100)))
                    + "\r\n"));
        }
        return all.toString();
    }

    /** Which server (index) holds each key, read from the servers directly. */
    private static Map<String, Integer> placement(MemcachedServers servers, List<String> keys) throws IOException {
        Map<String, Integer> where = new HashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            if (!servers.get(i).isAlive()) {
                continue;
            }
            for (String k : directValues(servers.get(i).address(), keys).keySet()) {
                Integer previous = where.put(k, i);
                assertEquals(null, previous, k + " on two servers");
            }
        }
        return where;
    }

    private static Map<String, String> directValues(InetSocketAddress server, List<String> keys) throws IOException {
        Map<String, String> out = new HashMap<>();
        try (RawClient direct = new RawClient(server)) {
            String[] lines = getThroughNutcracker(direct, keys).split("\r\n");
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].startsWith("VALUE ")) {
                    out.put(lines[i].split(" ")[1], lines[i + 1]);
                }
            }
        }
        return out;
    }

    private static List<String> keys(String prefix, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(prefix + ":" + Integer.toHexString(i * 0x9E3779B1) + ":" + i);
        }
        return keys;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static int hits(String replies) {
        return count(replies, "VALUE ");
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }

    private static InetSocketAddress loopback(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }
}
