package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.cassandra.fixture.CassandraNode;
import io.locus.cassandra.fixture.ForkedCassandraNode;
import io.locus.gluster.fixture.GlusterVolume;
import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterFile;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each host archive of the release, installed into its real host by the steps of the install note it carries, with
 * no other copy of the plugin anywhere the host looks (each host runs on its own class path, that of its fixture
 * module, and the test checks that no entry of it holds the plugin): the DROP jar in a Cassandra node's {@code lib/} with an {@code initial_token} from the tools archive's
 * {@code locus-drop plan}; the CAST policy jar in a NameNode's {@code share/hadoop/hdfs/lib/}; the translator in the
 * bricks' {@code xlator/user/} of a volume with {@code user.xlator.virtcache} set.
 */
class HostInstallIT {
    private static final Path TARGET = Path.of(System.getProperty("locus.dist.dir"));
    private static final String VERSION = System.getProperty("locus.version");
    private static final Path ROOT = TARGET.resolve("host-install-it");

    @BeforeAll
    static void clean() throws IOException {
        Archives.deleteTree(ROOT);
        Files.createDirectories(ROOT);
    }

    @Test
    void cassandra_loadsDropFromTheJarInItsLib_withAPlannedToken() throws Exception {
        Path archive = Archives.untar(TARGET, VERSION, "cassandra-partitioner", ROOT)
                .resolve("locus-cassandra-partitioner-" + VERSION);
        String jarName = "locus-cassandra-partitioner-" + VERSION + ".jar";
        String classPath = fixtureClassPath("cassandra");
        assertEquals(
                List.of(), copiesOf("io/locus/cassandra/DropPartitioner.class", classPath), "Cassandra's class path");

        // cp lib/locus-cassandra-partitioner-<v>.jar $CASSANDRA_HOME/lib/
        Path lib = ROOT.resolve("cassandra-home/lib");
        Files.createDirectories(lib);
        Files.copy(archive.resolve("lib").resolve(jarName), lib.resolve(jarName), StandardCopyOption.REPLACE_EXISTING);

        List<String> paths = new ArrayList<>();
        for (int d = 0; d < 30; d++) {
            for (int f = 0; f < 30; f++) {
                paths.add("/srv/dir" + d + "/file" + f);
            }
        }
        String token = plannedToken(paths);

        CassandraNode.Options options = CassandraNode.Options.defaults()
                .withDirectory(ROOT.resolve("cassandra-node"))
                .withPartitioner("io.locus.cassandra.DropPartitioner")
                .withInitialTokens(token);
        try (ForkedCassandraNode node = ForkedCassandraNode.create(options)
                        .withClassPath(classPath + File.pathSeparator + lib.resolve(jarName))
                        .start();
                CqlSession s = node.newSession()) {
            assertEquals(
                    "io.locus.cassandra.DropPartitioner",
                    s.execute("SELECT partitioner FROM system.local").one().getString(0));
            assertEquals(
                    List.of(token),
                    new ArrayList<>(
                            s.execute("SELECT tokens FROM system.local").one().getSet(0, String.class)));
            s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
            s.execute("CREATE TABLE ks.inodes (path text PRIMARY KEY, depth int)");
            PreparedStatement insert = s.prepare("INSERT INTO ks.inodes (path, depth) VALUES (?, 3)");
            for (String p : paths) {
                s.execute(insert.bind(p));
            }
            assertEquals(
                    paths.size(),
                    s.execute("SELECT count(*) FROM ks.inodes").one().getLong(0));
            JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:"
                    + node.jmxEndpoint().getPort() + "/jmxrmi");
            try (JMXConnector jmx = JMXConnectorFactory.connect(url)) {
                MBeanServerConnection server = jmx.getMBeanServerConnection();
                ObjectName name = new ObjectName("io.locus.cassandra:type=DropPartitioner");
                assertEquals(true, server.getAttribute(name, "Planned"));
                assertEquals(1, server.getAttribute(name, "LocalTokens"));
            }
        }
    }

    @Test
    void nameNode_placesBlocksWithThePolicyFromTheJarInItsLib() throws Exception {
        Path archive = Archives.untar(TARGET, VERSION, "hdfs-tiering-policy", ROOT)
                .resolve("locus-hdfs-tiering-policy-" + VERSION);
        String jarName = "locus-hdfs-tiering-policy-" + VERSION + ".jar";
        // cp lib/locus-hdfs-tiering-policy-<v>.jar $HADOOP_HOME/share/hadoop/hdfs/lib/
        Path lib = ROOT.resolve("hadoop-home/share/hadoop/hdfs/lib");
        Files.createDirectories(lib);
        Path installed = lib.resolve(jarName);
        Files.copy(archive.resolve("lib").resolve(jarName), installed, StandardCopyOption.REPLACE_EXISTING);

        String hadoop = fixtureClassPath("hdfs");
        assertEquals(
                List.of(), copiesOf("io/locus/hdfs/CastBlockPlacementPolicy.class", hadoop), "Hadoop's class path");
        String classPath = String.join(
                File.pathSeparator, hadoop, System.getProperty("locus.dist.test-classes"), installed.toString());
        Path dir = ROOT.resolve("namenode");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m",
                "-Djava.io.tmpdir=" + TARGET,
                "-cp",
                classPath,
                NameNodeInstallCheck.class.getName(),
                dir.resolve("cluster").toString()));
        Files.createDirectories(dir);
        Path out = dir.resolve("check.out");
        Path log = dir.resolve("check.log");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(log.toFile())
                .start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the NameNode check did not finish in 300 s; see " + log);
        }
        assertEquals(0, p.exitValue(), "the NameNode check failed; see " + log);
        List<String> lines = Files.readAllLines(out);
        String source = line(lines, NameNodeInstallCheck.SOURCE_LINE, log);
        assertEquals(
                installed.toAbsolutePath().toString(),
                Path.of(source).toAbsolutePath().toString());
        JsonNode beans = new ObjectMapper()
                .readTree(line(lines, NameNodeInstallCheck.JMX_LINE, log))
                .path("beans");
        assertEquals(1, beans.size(), "beans: " + beans);
        // Three blocks of one file, no plan installed: every one placed the default way, none by a plan.
        int blocks = (int) Math.ceil(NameNodeInstallCheck.FILE_BYTES / (double) (1 << 20));
        assertEquals(blocks, beans.get(0).get("PlacementsByDefault").asLong(), beans.toString());
        assertEquals(0, beans.get(0).get("PlacementsByPlan").asLong(), beans.toString());
    }

    @Test
    void brick_runsTheTranslatorFromTheArchive_andCountsTheReadsIssued() throws Exception {
        Path archive = Archives.untar(TARGET, VERSION, "gluster-virtcache-xlator", ROOT)
                .resolve("locus-gluster-virtcache-xlator-" + VERSION);
        // install -D -m 0644 lib/virtcache.so .../xlator/user/virtcache.so; gluster volume set VOL
        // user.xlator.virtcache
        // posix: what the fixture's UserTranslator does before the volume starts.
        try (GlusterVolume volume = GlusterVolume.builder(ROOT.resolve("gluster"))
                        .name("locus-dist")
                        .userTranslator(UserTranslator.abovePosix("virtcache", archive.resolve("lib/virtcache.so")))
                        .option("performance.quick-read", "off")
                        .option("performance.open-behind", "off")
                        .start();
                io.locus.gluster.gfapi.GlusterVolume client = io.locus.gluster.gfapi.GlusterVolume.connect(
                        volume.server(), volume.name(), volume.gfapiLog())) {
            try (GlusterFile f = client.create("/disk.img")) {
                f.write(0, new byte[256 << 10]);
                f.fsync();
            }
            try (GlusterFile f = client.open("/disk.img", false)) {
                for (int i = 0; i < 7; i++) {
                    f.read(65536L * 2, 4096);
                }
            }
            String stats = new String(client.getxattr("/disk.img", "trusted.virtcache.stats"), StandardCharsets.UTF_8);
            assertTrue(stats.lines().anyMatch("reads=7"::equals), stats);
            assertEquals(
                    -1L,
                    Files.mismatch(
                            archive.resolve("lib/virtcache.so"), UserTranslator.INSTALL_DIR.resolve("virtcache.so")),
                    "the bricks' library is the archive's");
        }
    }

    /** The tools archive's {@code locus-drop plan} for one node, as an operator runs it: its {@code initial_token}. */
    private static String plannedToken(List<String> paths) throws Exception {
        Path home = ROOT.resolve("home");
        Files.createDirectories(home);
        ReleaseTools tools = new ReleaseTools(
                Archives.untar(TARGET, VERSION, "tools", ROOT).resolve("locus-tools-" + VERSION), ROOT, home);
        Path keys = ROOT.resolve("keys.txt");
        Files.write(keys, paths);
        ReleaseTools.Result plan = tools.run("locus-drop", "plan", "--keys", keys.toString(), "--nodes", "1", "--json");
        assertEquals(0, plan.code(), plan.toString());
        JsonNode node = new ObjectMapper().readTree(plan.out()).path("nodes").get(0);
        String token = node.path("initial_token").asText();
        assertTrue(!token.isEmpty() && !token.contains(","), "initial_token of " + node);
        return token;
    }

    /**
     * A host's own class path, without this module's: what the {@code integration-tests/HOST} fixture module runs on
     * ({@code target/classes} and the {@code target/classpath.txt} Maven wrote), i.e. the host's jars and the fixture.
     */
    private static String fixtureClassPath(String host) throws IOException {
        Path fixture = Path.of(System.getProperty("locus.fixtures.dir")).resolve(host);
        return fixture.resolve("target/classes")
                + File.pathSeparator
                + Files.readString(fixture.resolve("target/classpath.txt")).trim();
    }

    /** The entries of {@code classPath} that hold {@code resource}. */
    private static List<String> copiesOf(String resource, String classPath) throws IOException {
        List<String> copies = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path p = Path.of(entry);
            if (Files.isDirectory(p)) {
                if (Files.exists(p.resolve(resource))) {
                    copies.add(entry);
                }
            } else if (Files.isRegularFile(p) && entry.endsWith(".jar")) {
                try (JarFile jar = new JarFile(p.toFile())) {
                    if (jar.getEntry(resource) != null) {
                        copies.add(entry);
                    }
                }
            }
        }
        return copies;
    }

    private static String line(List<String> lines, String prefix, Path log) {
        return lines.stream()
                .filter(l -> l.startsWith(prefix))
                .map(l -> l.substring(prefix.length()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no '" + prefix.trim() + "' line in "
                        + lines.stream().collect(Collectors.joining("\n")) + "; see " + log));
    }
}
