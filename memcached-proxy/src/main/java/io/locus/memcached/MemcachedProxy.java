package io.locus.memcached;

import io.locus.memcached.config.ConfigException;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.config.ProxyConfig;
import io.locus.memcached.proxy.ProxyServer;
import io.locus.memcached.proxy.TenantReloader;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Command line: {@code java -jar locus-memcached-proxy-<version>.jar --config proxy.yaml}.
 *
 * <p>Exit codes: 0 after a clean stop (SIGTERM/SIGINT), 2 for a configuration error (the message names the key),
 * 1 if the proxy cannot start (e.g. a port is taken).
 */
@Command(name = "locus-memcached-proxy", mixinStandardHelpOptions = true, version = "locus-memcached-proxy 0.1.0",
    description = "A tenant- and deadline-aware memcached proxy in front of unmodified memcached servers.")
public final class MemcachedProxy implements Callable<Integer> {
  @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "YAML configuration file")
  Path config;

  @Option(names = "--check", description = "validate the configuration and exit")
  boolean checkOnly;

  @Override
  public Integer call() throws InterruptedException {
    ProxyConfig cfg;
    try {
      cfg = ConfigLoader.load(config);
    } catch (ConfigException e) {
      System.err.println("locus-memcached-proxy: " + config + ": " + e.getMessage());
      return 2;
    }
    if (checkOnly) {
      System.out.println("configuration OK: " + cfg.listeners().size() + " listeners, " + cfg.servers().size()
          + " backends");
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
    TenantReloader reloader = new TenantReloader(config, server, cfg.longValue("reload.interval"));
    reloader.onSighup();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      reloader.close();
      server.close();
      stopped.countDown();
    }, "locus-stop"));
    stopped.await();
    return 0;
  }

  public static void main(String[] args) {
    int code = new CommandLine(new MemcachedProxy()).execute(args);
    if (code != 0) {
      System.exit(code);
    }
  }
}
