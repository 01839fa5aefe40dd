package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proxy's OCI image, run the way a container runtime runs it, with no container daemon anywhere: {@code skopeo
 * copy oci-archive:} reads the archive as podman and registry pushes do, {@code umoci unpack} turns the image into a
 * runtime bundle, and {@code runc} runs it as root in the host's network namespace (so the test's loopback
 * memcached is reachable), with this test's configuration mounted over {@code /etc/locus/proxy.yaml} as an operator
 * would mount theirs. runc, not crun: Debian 12's crun 1.8 refuses to start on a host with hybrid cgroup v1/v2 mounts
 * ("cgroups in hybrid mode not supported"), which is what this project's machines have. Needs root.
 */
class ProxyOciIT {
    private static final Path TARGET = Path.of(System.getProperty("locus.dist.dir"));
    private static final String VERSION = System.getProperty("locus.version");
    private static final Path ARCHIVE = TARGET.resolve("locus-proxy-" + VERSION + "-oci.tar");
    private static final Path WORK = TARGET.resolve("oci-it");
    private static final Path BUNDLE = WORK.resolve("bundle");
    private static final List<String> ENTRYPOINT = List.of("java", "-jar", "/opt/locus-proxy/locus-proxy.jar");
    private static final List<String> CMD = List.of("--config", "/etc/locus/proxy.yaml");
    private static final int IMAGE_UID = 10001;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The bundle's config.json as umoci wrote it from the image; each run writes its own variant of it. */
    private static ObjectNode imageRuntimeConfig;

    @BeforeAll
    static void unpack() throws Exception {
        assertTrue(Files.isRegularFile(ARCHIVE), ARCHIVE + " (run mvn package)");
        Shell.run(0, "rm", "-rf", WORK.toString());
        Files.createDirectories(WORK);
        Path layout = WORK.resolve("layout");
        // --insecure-policy: the copy is between two local files, no signature applies; the host's policy.json is
        // not this test's to rely on.
        Shell.run(
                0,
                "skopeo",
                "--insecure-policy",
                "copy",
                "--quiet",
                "oci-archive:" + ARCHIVE,
                "oci:" + layout + ":" + VERSION);
        Shell.run(0, "umoci", "unpack", "--image", layout + ":" + VERSION, BUNDLE.toString());
        imageRuntimeConfig =
                (ObjectNode) JSON.readTree(BUNDLE.resolve("config.json").toFile());
    }

    @AfterAll
    static void cleanUp() throws Exception {
        Shell.run(0, "rm", "-rf", WORK.toString());
    }

    @Test
    void imageConfig_carriesTheBuildsVersion_aNonRootUser_theEntrypointAndPorts() throws Exception {
        JsonNode config = JSON.readTree(Shell.run(0, "skopeo", "inspect", "--config", "oci-archive:" + ARCHIVE))
                .get("config");
        assertEquals(
                VERSION, config.at("/Labels/org.opencontainers.image.version").asText(), config.toString());
        assertEquals(IMAGE_UID + ":" + IMAGE_UID, config.get("User").asText());
        assertEquals(ENTRYPOINT, strings(config.get("Entrypoint")));
        assertEquals(CMD, strings(config.get("Cmd")));
        assertEquals(List.of("22122/tcp", "22123/tcp"), fieldNames(config.get("ExposedPorts")));

        // The image's tag: an oci: or oci-archive: reference names the image by this annotation.
        JsonNode index = JSON.readTree(Shell.run(0, "tar", "-xOf", ARCHIVE.toString(), "index.json"));
        assertEquals(1, index.get("manifests").size(), index.toString());
        assertEquals(
                VERSION,
                index.at("/manifests/0/annotations/org.opencontainers.image.ref.name")
                        .asText(),
                index.toString());

        assertTrue(
                Files.readAllLines(BUNDLE.resolve("rootfs/etc/passwd"))
                        .contains("locus-proxy:x:" + IMAGE_UID + ":" + IMAGE_UID + "::/nonexistent:/usr/sbin/nologin"),
                "the image's user in its /etc/passwd");
    }

    @Test
    void container_printsTheBuildsVersion_andAcceptsItsDefaultConfig() throws Exception {
        writeRuntimeConfig(args("--version"), null);
        assertEquals("locus-memcached-proxy " + VERSION, runOnce("version").trim());

        writeRuntimeConfig(args(CMD, "--check"), null);
        runOnce("check");
    }

    /** Runs the bundle in the foreground until its process exits, which must be with 0; returns what it printed. */
    private static String runOnce(String what) throws Exception {
        String id = containerId(what);
        try {
            return runc(0, "run", "--bundle", BUNDLE.toString(), id);
        } finally {
            runc(-1, "delete", "--force", id);
        }
    }

    @Test
    void container_servesAGetFromMemcached_asTheImagesUser() throws Exception {
        Path dir = WORK.resolve("serve");
        Files.createDirectories(dir);
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, dir)) {
            InetSocketAddress memcached = servers.addresses().get(0);
            assertEquals("STORED\r\n", Wire.exchange(memcached, "set oci 0 0 5\r\nimage\r\n", "\r\n"));

            int port = Ports.freeLoopbackPort();
            Path config = dir.resolve("proxy.yaml");
            Files.writeString(
                    config,
                    "listen: \"127.0.0.1:" + port + "\"\npool:\n  servers: [\"127.0.0.1:" + memcached.getPort()
                            + ":1\"]\n");
            writeRuntimeConfig(args(CMD), config);
            String id = containerId("serve");
            List<String> command = List.of("runc", "run", "--bundle", BUNDLE.toString(), id);
            try (HostProcess container = HostProcess.start("locus-proxy-oci", command, dir.resolve("container.log"))) {
                Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(60), container);
                assertEquals(
                        "VALUE oci 0 5\r\nimage\r\nEND\r\n",
                        Wire.exchange(new InetSocketAddress("127.0.0.1", port), "get oci\r\n", "END\r\n"));

                long pid = JSON.readTree(runc(0, "state", id)).get("pid").asLong();
                assertEquals(
                        String.join("\0", args(CMD)) + "\0",
                        Files.readString(Path.of("/proc/" + pid + "/cmdline")),
                        "the container runs the image's entrypoint and command");
                String uids = Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream()
                        .filter(l -> l.startsWith("Uid:"))
                        .findFirst()
                        .orElseThrow();
                assertEquals(List.of("Uid:", "10001", "10001", "10001", "10001"), List.of(uids.split("\\s+")));
            } finally {
                runc(-1, "delete", "--force", id);
            }
        }
    }

    /**
     * The image's runtime config with {@code args}, no terminal, the host's network namespace, and {@code config}
     * (if given) mounted read-only over the image's /etc/locus/proxy.yaml.
     */
    private static void writeRuntimeConfig(List<String> args, Path config) throws Exception {
        ObjectNode spec = imageRuntimeConfig.deepCopy();
        ObjectNode process = (ObjectNode) spec.get("process");
        process.put("terminal", false);
        ArrayNode argv = process.putArray("args");
        args.forEach(argv::add);
        ArrayNode namespaces = (ArrayNode) spec.at("/linux/namespaces");
        for (int i = namespaces.size() - 1; i >= 0; i--) {
            if ("network".equals(namespaces.get(i).get("type").asText())) {
                namespaces.remove(i);
            }
        }
        if (config != null) {
            ObjectNode mount = ((ArrayNode) spec.get("mounts")).addObject();
            mount.put("destination", "/etc/locus/proxy.yaml");
            mount.put("type", "bind");
            mount.put("source", config.toAbsolutePath().toString());
            mount.putArray("options").add("bind").add("ro");
        }
        JSON.writeValue(BUNDLE.resolve("config.json").toFile(), spec);
    }

    private static String runc(int expectExit, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("runc"));
        command.addAll(List.of(args));
        return Shell.run(expectExit, command.toArray(String[]::new));
    }

    /** A name no other run on this machine uses: runc's container names are global to the host. */
    private static String containerId(String what) {
        return "locus-oci-it-" + ProcessHandle.current().pid() + "-" + what;
    }

    private static List<String> args(List<String> cmd, String... more) {
        List<String> all = new ArrayList<>(ENTRYPOINT);
        all.addAll(cmd);
        all.addAll(List.of(more));
        return all;
    }

    private static List<String> args(String... more) {
        return args(List.of(), more);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> fieldNames(JsonNode object) {
        Map<String, JsonNode> sorted = new TreeMap<>();
        object.fields().forEachRemaining(e -> sorted.put(e.getKey(), e.getValue()));
        return new ArrayList<>(sorted.keySet());
    }
}
