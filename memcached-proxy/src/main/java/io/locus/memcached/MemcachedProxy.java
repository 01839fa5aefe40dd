package io.locus.memcached;

import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.config.NutcrackerConfig;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.server.ProxyServer;
import io.locus.memcached.server.TenantReloader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Command line: {@code java -jar locus-memcached-proxy-<version>.jar --config proxy.yaml}, or from a twemproxy
 * configuration, {@code --nutcracker nutcracker.yml [--pool NAME] [--config proxy.yaml]} ({@link NutcrackerConfig}).
 *
 * <p>Exit codes: 0 after a clean stop (SIGTERM/SIGINT), 2 for a configuration error (the message names the key),
 * 1 if the proxy cannot start (e.g. a port is taken).
 */
@Command(
        name = "locus-memcached-proxy",
        mixinStandardHelpOptions = true,
        versionProvider = MemcachedProxy.BuildVersion.class,
        description = "A tenant- and deadline-aware memcached proxy in front of unmodified memcached servers.")
public final class MemcachedProxy implements Callable<Integer> {
    @Option(
            names = {"-c", "--config"},
            paramLabel = "FILE",
            description = "YAML configuration file; with --nutcracker, only the proxy's own settings")
    private Path config;

    @Option(
            names = "--nutcracker",
            paramLabel = "FILE",
            description = "run one pool of a twemproxy nutcracker.yml; keys the proxy cannot honour are refused")
    private Path nutcracker;

    @Option(
            names = "--pool",
            paramLabel = "NAME",
            description = "with --nutcracker: the pool to run (needed when the file has more than one)")
    private String pool;

    @Option(names = "--check", description = "validate the configuration and exit")
    private boolean checkOnly;

    /** {@code --version}: the version of the build, which Maven writes into {@code version.properties}. */
    static final class BuildVersion implements picocli.CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() throws java.io.IOException {
            java.util.Properties p = new java.util.Properties();
            try (java.io.InputStream in = MemcachedProxy.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    throw new java.io.IOException("io/locus/memcached/version.properties is missing from the jar");
                }
                p.load(in);
            }
            return new String[] {"${COMMAND-FULL-NAME} " + p.getProperty("version")};
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        if (config == null && nutcracker == null) {
            System.err.println("locus-memcached-proxy: missing --config FILE or --nutcracker FILE");
            return 2;
        }
        if (pool != null && nutcracker == null) {
            System.err.println("locus-memcached-proxy: --pool " + pool + " without --nutcracker FILE");
            return 2;
        }
        ProxyConfig cfg;
        try {
            cfg = nutcracker == null ? ConfigLoader.load(config) : NutcrackerConfig.load(nutcracker, pool, config);
        } catch (ConfigException e) {
            System.err.println("locus-memcached-proxy: " + (nutcracker == null ? config + ": " : "") + e.getMessage());
            return 2;
        }
        if (checkOnly) {
            System.out.println("configuration OK: " + cfg.listeners().size() + " listeners, "
                    + cfg.servers().size() + " backends");
            return 0;
        }
        ProxyServer server = new ProxyServer(cfg);
        try {
            server.start();
        } catch (ConfigException e) {
            System.err.println("locus-memcached-proxy: " + e.getMessage());
            return 2;
        } catch (IllegalStateException e) {
            System.err.println("locus-memcached-proxy: " + e.getMessage());
            return 1;
        }
        // Tenants live in the proxy's own file: with a nutcracker file alone there is nothing to reload.
        TenantReloader reloader = config == null
                ? null
                : new TenantReloader(config, reloadFrom(), server, cfg.server().reloadIntervalMicros());
        if (reloader != null) {
            reloader.onSighup();
        } else if (!TenantReloader.sighupIgnored()) {
            // The JVM's own SIGHUP handling would end the process: a service manager's reload must not stop it.
            sun.misc.Signal.handle(
                    new sun.misc.Signal("HUP"),
                    s -> System.err.println(
                            "locus-memcached-proxy: SIGHUP: nothing to reload without --config (the nutcracker"
                                    + " pool is read at start-up)"));
        }
        // SIGTERM and SIGINT are handled rather than left to the JVM, which would end the process with 128 + the
        // signal's number after its shutdown hooks: a stop asked for is a clean exit, status 0.
        CountDownLatch stopAsked = new CountDownLatch(1);
        for (String name : new String[] {"TERM", "INT"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> stopAsked.countDown());
        }
        stopAsked.await();
        if (reloader != null) {
            reloader.close();
        }
        server.close();
        return 0;
    }

    /** How a reload reads the configuration: the same files and pool as at start-up. */
    private java.util.function.Supplier<ProxyConfig> reloadFrom() {
        Path nc = nutcracker;
        Path own = config;
        String name = pool;
        return nc == null ? () -> ConfigLoader.load(own) : () -> NutcrackerConfig.load(nc, name, own);
    }

    /**
     * Netty's buffer leak detection is off in the runnable proxy unless {@code -Dio.netty.leakDetection.level} is given.
     * Why: at Netty's default level (SIMPLE) every 128th buffer allocation records its creation with a stack trace; the
     * proxy allocates a few buffers per request, so about 2 % of requests pay that, and it is the proxy's whole p99
     * excess over twemproxy: added p99 over direct memcached 129-169 µs with it, 103 µs without (twemproxy 79-106 µs;
     * {@code ./locus bench proxy-latency}). The tests run the proxy in their JVM with detection on (the
     * fuzz test at PARANOID), so leaks are still caught where they are looked for.
     */
    static void defaultLeakDetectionOff() {
        if (System.getProperty("io.netty.leakDetection.level") == null
                && System.getProperty("io.netty.leakDetectionLevel") == null) {
            io.netty.util.ResourceLeakDetector.setLevel(io.netty.util.ResourceLeakDetector.Level.DISABLED);
        }
    }

    public static void main(String[] args) {
        defaultLeakDetectionOff();
        System.exit(new CommandLine(new MemcachedProxy()).execute(args));
    }
}
