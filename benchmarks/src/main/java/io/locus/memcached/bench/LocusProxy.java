package io.locus.memcached.bench;

import io.locus.fixture.HostProcess;
import io.locus.fixture.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The Locus proxy as a child process of its shaded jar ({@code java -jar locus-memcached-proxy-*.jar --config
 * FILE}), so its Netty never meets the Cassandra jars of this module. The configuration names the backends
 * {@code memcached-0 ..} as the twemproxy fixture does, so both proxies place every key on the same backend.
 */
public final class LocusProxy implements AutoCloseable {
    private final HostProcess process;
    private final InetSocketAddress address;
    private final Path config;

    private LocusProxy(HostProcess process, InetSocketAddress address, Path config) {
        this.process = process;
        this.address = address;
        this.config = config;
    }

    /**
     * The configuration of one mode, as YAML.
     *
     * @param port listen port
     * @param backends backend addresses, named {@code memcached-i}
     * @param tenants tenants, each with its key prefix {@code name:}
     * @param emulation gives each range's deadline rule
     * @param localCapacityBytes {@code local.capacity_bytes}
     */
    static String yaml(
            LocusMode mode,
            int port,
            List<InetSocketAddress> backends,
            List<TenantProfile> tenants,
            Emulation emulation,
            long localCapacityBytes) {
        return dump(config(mode, port, backends, tenants, emulation, localCapacityBytes));
    }

    /** The configuration of one mode as a mutable map in file order, for callers that add keys; see {@link #yaml}. */
    static Map<String, Object> config(
            LocusMode mode,
            int port,
            List<InetSocketAddress> backends,
            List<TenantProfile> tenants,
            Emulation emulation,
            long localCapacityBytes) {
        Map<String, Object> y = new LinkedHashMap<>();
        y.put("listen", "127.0.0.1:" + port);
        y.put("pool", Map.of("servers", servers(backends)));
        y.put("local.capacity_bytes", localCapacityBytes);
        y.putAll(mode.settings());
        List<Map<String, Object>> tenantList = new ArrayList<>();
        List<Map<String, Object>> rules = new ArrayList<>();
        for (TenantProfile t : tenants) {
            Map<String, Object> tenant = new LinkedHashMap<>();
            tenant.put("id", t.name());
            tenant.put("prefixes", List.of(t.name() + ":"));
            tenant.put("weight", t.weight());
            tenant.put("level", t.level());
            tenantList.add(tenant);
            for (DeadlineRange r : DeadlineRange.values()) {
                Map<String, Object> rule = new LinkedHashMap<>();
                rule.put("prefix", t.name() + ":" + r.code() + ":");
                rule.put(
                        "deadline",
                        r == DeadlineRange.BEST_EFFORT ? "~" : formatMillis(emulation.deadlineMillis(r)) + "ms");
                rules.add(rule);
            }
        }
        y.put("tenants", tenantList);
        y.put("deadline_rules", rules);
        return y;
    }

    /** The pool's server entries {@code host:port:1 memcached-i}, named as the twemproxy fixture names them. */
    static List<String> servers(List<InetSocketAddress> backends) {
        List<String> servers = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            InetSocketAddress b = backends.get(i);
            servers.add(b.getHostString() + ":" + b.getPort() + ":1 memcached-" + i);
        }
        return servers;
    }

    /** A configuration map as block-style YAML. */
    static String dump(Map<String, Object> config) {
        DumperOptions style = new DumperOptions();
        style.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(style).dump(config);
    }

    /**
     * One {@code key: value} YAML line as a map (the value typed as YAML reads it).
     *
     * @throws IllegalArgumentException naming the line if it is not a YAML mapping
     */
    static Map<String, Object> parseLine(String line) {
        Object parsed;
        try {
            parsed = new Yaml().load(line);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("proxy setting \"" + line + "\" is not YAML: " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(
                    "proxy setting \"" + line + "\" (expected: a YAML line such as 'io_threads: 1')");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> out.put(String.valueOf(k), v));
        return out;
    }

    private static String formatMillis(double millis) {
        return millis == Math.rint(millis) ? Long.toString((long) millis) : Double.toString(millis);
    }

    /**
     * Checks a configuration with the jar's {@code --check}; returns null if accepted, else the proxy's message.
     *
     * @throws UncheckedIOException if java cannot be started
     */
    static String check(Path jar, Path config) {
        try {
            Process p = new ProcessBuilder(javaCommand(jar, config, List.of(), List.of("--check")))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "--check did not finish in 60 s";
            }
            return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run java -jar " + jar, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static List<String> javaCommand(Path jar, Path config, List<String> jvmArgs, List<String> extra) {
        List<String> command = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms256m", "-Xmx1g"));
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", jar.toString(), "--config", config.toString()));
        command.addAll(extra);
        return command;
    }

    /**
     * Starts the proxy with {@code yaml} and waits until it listens.
     *
     * @param jvmArgs extra JVM options of the child (e.g. a JFR recording), before {@code -jar}
     * @throws IllegalStateException if it exits or does not listen within 60 s (with its log's path)
     */
    static LocusProxy start(String label, Path jar, String yaml, int port, Path dir, List<String> jvmArgs) {
        try {
            Files.createDirectories(dir);
            Path config = dir.resolve(label + ".yaml");
            Files.writeString(config, yaml);
            HostProcess process =
                    HostProcess.start(label, javaCommand(jar, config, jvmArgs, List.of()), dir.resolve(label + ".log"));
            try {
                Ports.awaitListening("127.0.0.1", port, Duration.ofSeconds(60), process);
            } catch (RuntimeException e) {
                process.close();
                throw e;
            }
            return new LocusProxy(process, new InetSocketAddress("127.0.0.1", port), config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the proxy configuration under " + dir, e);
        }
    }

    /** Where clients connect. */
    public InetSocketAddress address() {
        return address;
    }

    /** The child's pid. */
    public long pid() {
        return process.pid();
    }

    /** The configuration file. */
    public Path config() {
        return config;
    }

    /** The proxy's {@code stats} lines as name → value; empty if it does not answer. */
    public Map<String, String> stats() {
        return stats("stats");
    }

    /** The lines of {@code command} ({@code stats} or {@code stats <group>}) as name → value; empty if none. */
    public Map<String, String> stats(String command) {
        Map<String, String> stats = new LinkedHashMap<>();
        try (TextClient client = new TextClient(address, 5000)) {
            for (String line : client.command(command)) {
                String[] parts = line.split(" ", 3);
                if (parts.length == 3 && parts[0].equals("STAT")) {
                    stats.put(parts[1], parts[2]);
                }
            }
        } catch (IOException e) {
            // A proxy that cannot answer stats has no local-hit numbers; the row still has the client's.
        }
        return stats;
    }

    @Override
    public void close() {
        process.close();
    }
}
