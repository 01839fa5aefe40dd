package io.locus.memcached.server;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import io.locus.memcached.testing.ProxyUnderTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The shaded jar run as a user runs it, {@code java [jvm options] -jar locus-memcached-proxy-<v>.jar --config FILE},
 * for the tests of the process itself (start and stop, memory); listening when {@link #start} returns.
 */
final class RunnableProxy implements AutoCloseable {
    final HostProcess process;
    final InetSocketAddress address;

    private RunnableProxy(HostProcess process, InetSocketAddress address) {
        this.process = process;
        this.address = address;
    }

    /**
     * @param dir where {@code proxy.yaml} and {@code proxy.log} go
     * @param backends the pool, weight 1 each
     * @param extraYaml further top-level configuration, may be empty
     * @param jvmOptions e.g. {@code -Xmx256m}
     */
    static RunnableProxy start(
            String name, Path dir, List<InetSocketAddress> backends, String extraYaml, List<String> jvmOptions)
            throws Exception {
        return start(name, dir, backends, extraYaml, jvmOptions, List.of());
    }

    /**
     * @param launcher a command that executes the JVM's command line given to it, e.g. {@code env
     *     --default-signal=INT}; empty to start the JVM directly
     */
    static RunnableProxy start(
            String name,
            Path dir,
            List<InetSocketAddress> backends,
            String extraYaml,
            List<String> jvmOptions,
            List<String> launcher)
            throws Exception {
        Files.createDirectories(dir);
        int port = Ports.freeLoopbackPort();
        Path config = dir.resolve("proxy.yaml");
        List<String> servers =
                backends.stream().map(a -> "127.0.0.1:" + a.getPort() + ":1").toList();
        Files.writeString(config, ProxyUnderTest.yaml("127.0.0.1:" + port, servers, extraYaml));
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(HostProcess.privateTmpJvmOption());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", RunnableJarIT.jar().toString(), "--config", config.toString()));
        HostProcess process = HostProcess.start(name, command, dir.resolve("proxy.log"));
        try {
            Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(20), process);
        } catch (RuntimeException | Error e) {
            process.close();
            throw e;
        }
        return new RunnableProxy(process, new InetSocketAddress("127.0.0.1", port));
    }

    /** The process's resident set, KiB ({@code VmRSS} of {@code /proc/<pid>/status}). */
    long rssKib() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS in /proc/" + process.pid() + "/status");
    }

    /** The process's {@code /proc/<pid>/status}. */
    String status() throws IOException {
        return Files.readString(Path.of("/proc", Long.toString(process.pid()), "status"));
    }

    @Override
    public void close() {
        process.close();
    }
}
