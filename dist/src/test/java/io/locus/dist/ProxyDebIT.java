package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import io.locus.memcached.fixture.MemcachedConfig;
import io.locus.memcached.fixture.MemcachedServers;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proxy's Debian package, installed with {@code dpkg -i} as an operator would: its user, its configuration and its
 * systemd unit are where Debian puts them; the unit's own command line, run as the unit's user, serves a {@code get};
 * {@code dpkg --purge} takes everything away again. Needs root (as {@code ./locus test} does for its packages).
 */
class ProxyDebIT {
    private static final Path TARGET = Path.of(System.getProperty("locus.dist.dir"));
    private static final String DEB_VERSION =
            System.getProperty("locus.version").replace('-', '~');
    private static final Path UNIT = Path.of("/lib/systemd/system/locus-proxy.service");
    private static final Path CONFIG = Path.of("/etc/locus/proxy.yaml");

    @BeforeAll
    static void noEarlierInstall() throws Exception {
        purgeIfInstalled();
    }

    @AfterAll
    static void purge() throws Exception {
        purgeIfInstalled();
    }

    @Test
    void install_serveAsTheUnit_purge() throws Exception {
        Path deb = TARGET.resolve("locus-proxy_" + DEB_VERSION + "_all.deb");
        assertTrue(Files.isRegularFile(deb), deb + " (run mvn package)");
        Shell.run(0, "dpkg", "-i", deb.toString());

        assertEquals(
                "ii " + DEB_VERSION,
                Shell.run(0, "dpkg-query", "-W", "-f=${db:Status-Abbrev}${Version}", "locus-proxy")
                        .replaceAll("\\s+", " ")
                        .trim());
        assertTrue(Shell.run(0, "getent", "passwd", "locus-proxy").startsWith("locus-proxy:"), "the service's user");
        assertTrue(Files.isRegularFile(CONFIG), CONFIG.toString());
        assertTrue(Files.isRegularFile(Path.of("/etc/logrotate.d/locus-proxy")));
        assertTrue(Files.isDirectory(Path.of("/var/log/locus-proxy")));
        assertTrue(Files.readString(UNIT).contains("\nUser=locus-proxy\n"), Files.readString(UNIT));
        assertEquals(
                List.of("/etc/locus/proxy.yaml", "/etc/logrotate.d/locus-proxy"),
                Arrays.stream(Shell.run(0, "dpkg-query", "-W", "-f=${Conffiles}", "locus-proxy")
                                .trim()
                                .split("\\s+"))
                        .filter(f -> f.startsWith("/"))
                        .collect(Collectors.toList()),
                "conffiles");

        Path dir = TARGET.resolve("deb-it");
        Files.createDirectories(dir);
        try (MemcachedServers servers = MemcachedServers.start(1, MemcachedConfig.DEFAULTS, dir)) {
            int port = Ports.freeLoopbackPort();
            // The operator's edit of the conffile: this test's memcached and a free port.
            Files.writeString(
                    CONFIG,
                    "listen: \"127.0.0.1:" + port + "\"\npool:\n  servers: [\"127.0.0.1:"
                            + servers.addresses().get(0).getPort() + ":1\"]\n");
            List<String> command =
                    new ArrayList<>(List.of("setpriv", "--reuid=locus-proxy", "--regid=locus-proxy", "--init-groups"));
            command.addAll(execStart());
            try (HostProcess proxy = HostProcess.start("locus-proxy-deb", command, dir.resolve("proxy.log"))) {
                Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(30), proxy);
                assertEquals(
                        "STORED\r\nVALUE k 0 3\r\ndeb\r\nEND\r\n",
                        Wire.exchange(
                                new InetSocketAddress("127.0.0.1", port),
                                "set k 0 0 3\r\ndeb\r\nget k\r\n",
                                "END\r\n"));
                assertEquals(
                        "locus-proxy",
                        Shell.run(0, "ps", "-o", "user=", "-p", Long.toString(proxy.pid()))
                                .trim(),
                        "the proxy runs as the unit's user");
            }
        }

        Shell.run(0, "dpkg", "--purge", "locus-proxy");
        assertFalse(Files.exists(UNIT), UNIT.toString());
        assertFalse(Files.exists(CONFIG), CONFIG.toString());
        assertFalse(Files.exists(Path.of("/usr/share/locus-proxy")));
        assertFalse(Files.exists(Path.of("/var/log/locus-proxy")));
        assertEquals("", Shell.run(-1, "getent", "passwd", "locus-proxy"), "the service's user is gone");
    }

    /** The unit's {@code ExecStart=} line, split as systemd splits it (no quotes in ours). */
    private static List<String> execStart() throws Exception {
        String line = Files.readAllLines(UNIT).stream()
                .filter(l -> l.startsWith("ExecStart="))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no ExecStart in " + UNIT));
        return Arrays.asList(line.substring("ExecStart=".length()).trim().split("\\s+"));
    }

    private static void purgeIfInstalled() throws Exception {
        if (Shell.run(-1, "dpkg-query", "-W", "-f=${db:Status-Abbrev}", "locus-proxy")
                        .startsWith("i")
                || Files.exists(CONFIG)) {
            Shell.run(0, "dpkg", "--purge", "locus-proxy");
        }
    }
}
