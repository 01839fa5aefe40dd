package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostJar;
import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release archives as an operator gets them: unpacked into an empty directory, run with {@code HOME} pointing at an
 * empty directory (no {@code ~/.m2}, no checkout), with nothing but a Java runtime. Every launcher answers
 * {@code --help} and {@code --version} with the build's version, and does one real job; each host archive holds its
 * artifact and its install note.
 */
class DistIT {
    private static final Path TARGET = Path.of(System.getProperty("locus.dist.dir"));
    private static final String VERSION = System.getProperty("locus.version");
    private static final Path ROOT = TARGET.resolve("dist-it");
    private static final Path HOME = ROOT.resolve("home");
    private static ReleaseTools tools;

    @BeforeAll
    static void unpack() throws Exception {
        Archives.deleteTree(ROOT);
        Files.createDirectories(HOME);
        tools = new ReleaseTools(untar("tools").resolve("locus-tools-" + VERSION), ROOT, HOME);
    }

    @Test
    void everyLauncher_answersHelpAndTheBuildsVersion() throws Exception {
        for (String tool : List.of("locus-drop", "locus-cast", "locus-virtcache")) {
            ReleaseTools.Result help = tools.run(tool, "--help");
            assertEquals(0, help.code(), tool + " --help: " + help);
            assertTrue(help.out().contains("Usage: " + tool), tool + " --help: " + help);
            ReleaseTools.Result version = tools.run(tool, "--version");
            assertEquals(0, version.code(), tool + " --version: " + version);
            assertEquals(tool + " " + VERSION, version.out().trim(), tool + " --version");
        }
        ReleaseTools.Result proxyHelp = tools.run("locus-proxy", "--help");
        assertEquals(0, proxyHelp.code(), "locus-proxy --help: " + proxyHelp);
        assertTrue(proxyHelp.out().contains("--config"), "locus-proxy --help: " + proxyHelp);
        ReleaseTools.Result proxyVersion = tools.run("locus-proxy", "--version");
        assertEquals("locus-memcached-proxy " + VERSION, proxyVersion.out().trim(), "locus-proxy --version");
    }

    @Test
    void locusDrop_evaluatesKeys() throws Exception {
        Path keys = ROOT.resolve("keys.txt");
        List<String> paths = new ArrayList<>();
        for (int d = 0; d < 20; d++) {
            for (int f = 0; f < 50; f++) {
                paths.add("/srv/dir" + d + "/file" + f);
            }
        }
        Files.write(keys, paths);
        ReleaseTools.Result r =
                tools.run("locus-drop", "evaluate", "--keys", keys.toString(), "--nodes", "4", "--json");
        assertEquals(0, r.code(), r.toString());
        assertTrue(r.out().startsWith("{") && r.out().contains("\"keys\":1000"), r.toString());
    }

    @Test
    void locusCast_plansTheShippedExampleWorkload() throws Exception {
        Path plan = ROOT.resolve("plan.json");
        ReleaseTools.Result r = tools.run(
                "locus-cast",
                "plan",
                "--workload",
                tools.dir().resolve("share/cast/examples/workload.yaml").toString(),
                "--out",
                plan.toString());
        assertEquals(0, r.code(), r.toString());
        assertTrue(Files.readString(plan).contains("\"schema\" : \"locus-cast-plan/1\""), Files.readString(plan));
    }

    @Test
    void locusVirtcache_reachesLibgfapi_andNamesTheVolumeItCannotReach() throws Exception {
        ReleaseTools.Result r = tools.run(
                "locus-virtcache",
                "status",
                "--server",
                "127.0.0.1",
                "--volume",
                "locus-dist-it-novol",
                "--file",
                "/disk.img",
                "--gfapi-log",
                ROOT.resolve("gfapi.log").toString());
        assertEquals(1, r.code(), r.toString());
        assertTrue(r.err().startsWith("locus-virtcache: "), r.toString());
        assertTrue(r.err().contains("locus-dist-it-novol"), r.toString());
    }

    @Test
    void locusProxy_servesAGetFromMemcached() throws Exception {
        Path dir = ROOT.resolve("proxy");
        Files.createDirectories(dir);
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, dir)) {
            int port = Ports.freeLoopbackPort();
            Path config = dir.resolve("proxy.yaml");
            Files.writeString(
                    config,
                    "listen: \"127.0.0.1:" + port + "\"\npool:\n  servers: [\"127.0.0.1:"
                            + servers.addresses().get(0).getPort() + ":1\"]\n");
            List<String> command = List.of(
                    "env",
                    "HOME=" + HOME,
                    "LOCUS_JAVA_OPTS=" + String.join(" ", HostProcess.privateTmpJvmOption()),
                    tools.dir().resolve("bin/locus-proxy").toString(),
                    "--config",
                    config.toString());
            try (HostProcess proxy = HostProcess.start("locus-proxy-dist", command, dir.resolve("proxy.log"))) {
                Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(30), proxy);
                assertEquals(
                        "STORED\r\nVALUE k 0 5\r\nhello\r\nEND\r\n",
                        Wire.exchange(
                                new InetSocketAddress("127.0.0.1", port),
                                "set k 0 0 5\r\nhello\r\nget k\r\n",
                                "END\r\n"));
            }
        }
    }

    @Test
    void hostArchives_holdTheArtifactAndItsInstallNote() throws Exception {
        Map<String, String> artifact = Map.of(
                "cassandra-partitioner", "lib/locus-cassandra-partitioner-" + VERSION + ".jar",
                "hdfs-tiering-policy", "lib/locus-hdfs-tiering-policy-" + VERSION + ".jar",
                "gluster-virtcache-xlator", "lib/virtcache.so");
        Map<String, String> note = Map.of(
                "cassandra-partitioner", "INSTALL-cassandra.md",
                "hdfs-tiering-policy", "INSTALL-hdfs.md",
                "gluster-virtcache-xlator", "INSTALL-gluster.md");
        for (String host : artifact.keySet()) {
            Path dir = untar(host).resolve("locus-" + host + "-" + VERSION);
            List<String> files;
            try (var walk = Files.walk(dir)) {
                files = walk.filter(Files::isRegularFile)
                        .map(p -> dir.relativize(p).toString())
                        .sorted()
                        .collect(Collectors.toList());
            }
            assertEquals(List.of(note.get(host), artifact.get(host)), files, host);
            String install = Files.readString(dir.resolve(note.get(host)));
            assertTrue(install.contains(VERSION) && !install.contains("${"), host + ": " + install);
        }
        Path cassandra = ROOT.resolve("cassandra-partitioner/locus-cassandra-partitioner-" + VERSION);
        assertEquals(
                Map.of(),
                new HostJar(cassandra.resolve("lib/locus-cassandra-partitioner-" + VERSION + ".jar"))
                        .classesNewerThan(11));
        Path hdfs = ROOT.resolve("hdfs-tiering-policy/locus-hdfs-tiering-policy-" + VERSION);
        assertEquals(
                Map.of(),
                new HostJar(hdfs.resolve("lib/locus-hdfs-tiering-policy-" + VERSION + ".jar")).classesNewerThan(8));
    }

    private static Path untar(String id) throws Exception {
        return Archives.untar(TARGET, VERSION, id, ROOT);
    }
}
