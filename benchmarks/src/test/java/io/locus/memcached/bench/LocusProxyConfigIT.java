package io.locus.memcached.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/**
 * The configurations the harnesses write for the Locus proxy, accepted by the proxy jar's own {@code --check}: every
 * mode of {@code ./locus bench proxy}, every balancer row of {@code ./locus bench balance}, and a
 * {@code --proxy-set} line; a bad {@code --proxy-set} line is a usage error of every harness that takes it.
 */
class LocusProxyConfigIT {
    private static final List<InetSocketAddress> BACKENDS =
            List.of(new InetSocketAddress("127.0.0.1", 11311), new InetSocketAddress("127.0.0.1", 11312));

    private static Path jar() {
        Path jar = Path.of(System.getProperty("locus.proxy.jar", "../memcached-proxy/target/" + ProxyBench.JAR_NAME));
        assertTrue(Files.isRegularFile(jar), "proxy jar " + jar.toAbsolutePath() + " (expected: built by the reactor)");
        return jar;
    }

    private static void assertAccepted(String name, String yaml) throws Exception {
        Path dir = Path.of(System.getProperty("java.io.tmpdir")).resolve("proxy-config-it");
        Files.createDirectories(dir);
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        assertNull(LocusProxy.check(jar(), file), name + " refused by --check:\n" + yaml);
    }

    @Test
    void everyModesConfiguration_isAcceptedByTheProxy() throws Exception {
        for (LocusMode mode : LocusMode.values()) {
            String yaml = LocusProxy.yaml(mode, 22122, BACKENDS, TenantProfile.defaults(), Emulation.NONE, 1 << 20);
            assertAccepted(mode.label(), yaml);
        }
        Map<String, Object> config =
                LocusProxy.config(LocusMode.DLC, 22122, BACKENDS, TenantProfile.defaults(), Emulation.NONE, 1 << 20);
        config.putAll(LocusProxy.parseLine("io_threads: 1"));
        assertAccepted("proxy-set", LocusProxy.dump(config));
    }

    @Test
    void everyBalancerRow_isAcceptedByTheProxy() throws Exception {
        for (String row : List.of("off", "p1", "p1p3")) {
            assertAccepted(
                    "balance-" + row,
                    LocusProxy.dump(BalanceBench.proxyConfig(22122, BACKENDS, 2000, row, row.equals("p1"), null)));
        }
        assertAccepted(
                "balance-lb-extra",
                LocusProxy.dump(BalanceBench.proxyConfig(22122, BACKENDS, 2000, "p1", false, Map.of("epoch", "1s"))));
    }

    @Test
    void valuesYamlWouldRetype_stayStrings() {
        Map<String, Object> balance =
                new Yaml().load(LocusProxy.dump(BalanceBench.proxyConfig(22122, BACKENDS, 2000, "off", false, null)));
        assertEquals("off", balance.get("local.mode"), "\"off\" is YAML 1.1's false unless quoted");
        assertEquals(
                List.of("127.0.0.1:11311:1 memcached-0", "127.0.0.1:11312:1 memcached-1"),
                ((Map<?, ?>) balance.get("pool")).get("servers"));
        Map<String, Object> modes = new Yaml()
                .load(LocusProxy.yaml(LocusMode.DLC, 1, BACKENDS, TenantProfile.defaults(), Emulation.NONE, 1));
        List<?> rules = (List<?>) modes.get("deadline_rules");
        assertTrue(rules.stream().anyMatch(r -> "~".equals(((Map<?, ?>) r).get("deadline"))), "best effort: " + rules);
        assertEquals(false, modes.get("sched.enabled"));
    }

    @Test
    void aProxySettingThatIsNoKeyValueLine_isRefusedWithTheLine() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> LocusProxy.parseLine("io_threads=1"));
        assertEquals("proxy setting \"io_threads=1\" (expected: a YAML line such as 'io_threads: 1')", e.getMessage());
    }

    @Test
    void aBadProxySetLine_isAUsageErrorOfEveryHarness_beforeAnythingStarts() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        for (Object harness : List.of(
                new LatencyProbe(),
                new ProxyBench(quiet, quiet),
                new BalanceBench(quiet, quiet),
                new MemcaslapBench(quiet, quiet))) {
            StringWriter err = new StringWriter();
            CommandLine cl = new CommandLine(harness).setErr(new PrintWriter(err));
            int exit = cl.execute("--proxy-jar", jar().toString(), "--proxy-set", "io_threads=1");
            assertEquals(2, exit, harness.getClass().getSimpleName() + ": " + err);
            assertTrue(
                    err.toString()
                            .contains("--proxy-set: proxy setting \"io_threads=1\" (expected: a YAML line such as"),
                    harness.getClass().getSimpleName() + ": " + err);
        }
    }
}
