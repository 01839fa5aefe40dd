package io.locus.memcached.proxy;

import io.locus.memcached.config.ConfigLoader;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.stream.Collectors;

/** A proxy started in this JVM on a free loopback port in front of the given backends. */
final class ProxyUnderTest implements AutoCloseable {
  final ProxyServer server;
  final InetSocketAddress address;

  ProxyUnderTest(List<InetSocketAddress> backends, String extraYaml) {
    this(backends, extraYaml, RequestHandler.Factory.PASS_THROUGH);
  }

  ProxyUnderTest(List<InetSocketAddress> backends, String extraYaml, RequestHandler.Factory factory) {
    String servers = backends.stream().map(a -> "\"127.0.0.1:" + a.getPort() + ":1\"")
        .collect(Collectors.joining(", "));
    String yaml = "listen: 127.0.0.1:0\npool:\n  servers: [" + servers + "]\n" + extraYaml;
    server = new ProxyServer(ConfigLoader.parse(yaml, "test"), factory);
    address = server.start().get(0);
  }

  String hostPort() {
    return "127.0.0.1:" + address.getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}
