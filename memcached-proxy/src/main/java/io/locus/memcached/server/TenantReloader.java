package io.locus.memcached.server;

import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.config.ProxyConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-reads the configuration file on SIGHUP and whenever its content changes (checked every
 * {@code reload.interval}), and hands the tenant part to {@link ProxyServer#reloadTenants}. Connections stay open;
 * requests resolved after the reload see the new tenants.
 *
 * <p>A file that no longer parses is logged and ignored: the proxy keeps its last good tenants. The content is
 * compared, not the modification time, so two edits within one timestamp tick are not missed.
 */
public final class TenantReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TenantReloader.class);

    private final Path file;
    private final Supplier<ProxyConfig> loader;
    private final ProxyServer server;
    private final ScheduledExecutorService poller;
    private byte[] lastContent;

    /**
     * @param intervalMicros polling period in µs; 0 = no polling (SIGHUP or {@link #reload()} only)
     */
    public TenantReloader(Path file, ProxyServer server, long intervalMicros) {
        this(file, () -> ConfigLoader.load(file), server, intervalMicros);
    }

    /**
     * @param file the file watched for changes
     * @param loader reads the whole configuration again (the proxy may be configured from more than {@code file})
     * @param intervalMicros polling period in µs; 0 = no polling (SIGHUP or {@link #reload()} only)
     */
    public TenantReloader(Path file, Supplier<ProxyConfig> loader, ProxyServer server, long intervalMicros) {
        this.file = file;
        this.loader = loader;
        this.server = server;
        this.lastContent = read();
        if (intervalMicros > 0) {
            poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "locus-config-watch");
                t.setDaemon(true);
                return t;
            });
            poller.scheduleWithFixedDelay(this::reloadIfChanged, intervalMicros, intervalMicros, TimeUnit.MICROSECONDS);
        } else {
            poller = null;
        }
    }

    /**
     * Reloads on SIGHUP (the usual signal for "re-read your configuration"). A process started with SIGHUP ignored
     * (under {@code nohup}, for one) cannot get it back: the JVM leaves an ignored SIGHUP ignored and says nothing, so
     * this says it.
     *
     * @return false if SIGHUP is ignored in this process and therefore cannot trigger a reload
     */
    public boolean onSighup() {
        if (sighupIgnored()) {
            LOG.warn(
                    "SIGHUP is ignored by this process (started under nohup?): it will not reload {}; use reload.interval",
                    file);
            return false;
        }
        sun.misc.Signal.handle(new sun.misc.Signal("HUP"), s -> {
            LOG.info("SIGHUP: re-reading {}", file);
            reload();
        });
        return true;
    }

    /** Whether this process ignores SIGHUP, from the kernel's mask of ignored signals ({@code SigIgn}). */
    public static boolean sighupIgnored() {
        try {
            return ignores(Files.readString(Path.of("/proc/self/status")), 1);
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether a {@code /proc/PID/status} text's {@code SigIgn} mask holds signal {@code signo} (bit signo - 1). */
    static boolean ignores(String status, int signo) {
        for (String line : status.split("\n")) {
            if (line.startsWith("SigIgn:")) {
                return new java.math.BigInteger(line.substring(7).trim(), 16).testBit(signo - 1);
            }
        }
        return false;
    }

    private byte[] read() {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            return null;
        }
    }

    private synchronized void reloadIfChanged() {
        byte[] now = read();
        if (now != null && !Arrays.equals(now, lastContent)) {
            LOG.info("{} changed: re-reading it", file);
            reload();
        }
    }

    /**
     * Re-reads the file and applies its tenants.
     *
     * @return true if applied; false if the file could not be read or is invalid (the old tenants stay)
     */
    public synchronized boolean reload() {
        lastContent = read();
        ProxyConfig fresh;
        try {
            fresh = loader.get();
        } catch (ConfigException e) {
            LOG.error("configuration reload of {} refused, keeping the running tenants: {}", file, e.getMessage());
            return false;
        }
        server.reloadTenants(fresh);
        return true;
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
