package io.locus.memcached.testing;

import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.balance.netty.BalancingServices;
import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.config.ConfigLoader;
import io.locus.memcached.server.ProxyServer;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/** A proxy started in this JVM on a free loopback port in front of the given backends. */
public final class ProxyUnderTest implements AutoCloseable {
    public final ProxyServer server;
    public final InetSocketAddress address;

    public ProxyUnderTest(List<InetSocketAddress> backends, String extraYaml) {
        this(backends, extraYaml, RequestHandler.Factory.PASS_THROUGH);
    }

    public ProxyUnderTest(List<InetSocketAddress> backends, String extraYaml, RequestHandler.Factory factory) {
        server = new ProxyServer(ConfigLoader.parse(yaml(backends, extraYaml), "test"), factory);
        address = server.start().get(0);
    }

    private ProxyUnderTest(ProxyServer server) {
        this.server = server;
        this.address = server.start().get(0);
    }

    /** The full proxy (deadline cache, schedulers, admission), as {@code java -jar} runs it. */
    public static ProxyUnderTest withDeadlines(List<InetSocketAddress> backends, String extraYaml) {
        return new ProxyUnderTest(new ProxyServer(ConfigLoader.parse(yaml(backends, extraYaml), "test")));
    }

    public static String yaml(List<InetSocketAddress> backends, String extraYaml) {
        return yaml(
                "127.0.0.1:0",
                backends.stream().map(a -> "127.0.0.1:" + a.getPort() + ":1").toList(),
                extraYaml);
    }

    /**
     * A configuration listening on {@code listen} with the given pool entries, then the test's own top-level keys
     * ({@code extraYaml}, may be empty), which win over these; written with SnakeYAML.
     */
    public static String yaml(String listen, List<String> servers, String extraYaml) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("listen", listen);
        config.put("pool", Map.of("servers", servers));
        Object extra = new Yaml().load(extraYaml);
        if (extra instanceof Map<?, ?> keys) {
            keys.forEach((k, v) -> config.put(String.valueOf(k), v));
        } else if (extra != null) {
            throw new IllegalArgumentException("extra proxy config is not a YAML mapping: " + extraYaml);
        }
        DumperOptions style = new DumperOptions();
        style.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(style).dump(config);
    }

    /** The proxy's {@code stats} lines, name to value. */
    public java.util.Map<String, String> stats() throws java.io.IOException {
        return stats(address, "");
    }

    /** The {@code stats <group>} lines ({@code ""}: plain {@code stats}) of the proxy at {@code address}. */
    public static java.util.Map<String, String> stats(InetSocketAddress address, String group)
            throws java.io.IOException {
        try (RawClient c = new RawClient(address)) {
            c.send(group.isEmpty() ? "stats\r\n" : "stats " + group + "\r\n");
            String all = new String(
                    c.readUntilEndsWith(RawClient.bytes("END\r\n")), java.nio.charset.StandardCharsets.ISO_8859_1);
            java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
            for (String line : all.split("\r\n")) {
                String[] p = line.split(" ", 3);
                if (p.length == 3 && p[0].equals("STAT")) {
                    m.put(p[1], p[2]);
                }
            }
            return m;
        }
    }

    public String hostPort() {
        return "127.0.0.1:" + address.getPort();
    }

    /** The first of {@code prefix}0, {@code prefix}1, ... whose bucket the balancer homes on {@code backend}. */
    public String keyHomedOn(int backend, String prefix) {
        BalancingServices lb = server.balancing();
        for (int i = 0; ; i++) {
            String k = prefix + i;
            if (lb.balancer().table().owner(lb.balancer().bucketOf(byteKey(k))) == backend) {
                return k;
            }
        }
    }

    /** A key as the balancer's tables hold it: its bytes, one per char. */
    public static ByteKey byteKey(String key) {
        return new ByteKey(key.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Override
    public void close() {
        server.close();
    }
}
