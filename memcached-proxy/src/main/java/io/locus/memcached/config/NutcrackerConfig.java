package io.locus.memcached.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * One pool of a twemproxy {@code nutcracker.yml}, read as the proxy's own configuration keys, so a site can run the
 * proxy from the file it already has ({@code --nutcracker FILE [--pool NAME]}).
 *
 * <p>Every key of the pool is either honoured (translated to the proxy's key of the same meaning), accepted and
 * ignored (it only tunes sockets or start-up, and the proxy's own behaviour is an acceptable stand-in), or refused
 * with its name, its value and what is supported: a key that would change where keys live or what protocol is
 * spoken is never silently dropped. README.md, "Coming from twemproxy", has the table.
 *
 * <p>Pure: reads text, returns keys; nothing is started.
 */
public final class NutcrackerConfig {
    /** Keys translated to the proxy's, in nutcracker's README order. */
    public static final List<String> HONOURED = List.of(
            "listen",
            "hash",
            "distribution",
            "timeout",
            "redis",
            "server_connections",
            "auto_eject_hosts",
            "server_retry_timeout",
            "server_failure_limit",
            "servers");

    /** Keys accepted and ignored: they tune sockets or start-up only. */
    public static final List<String> IGNORED = List.of("client_connections", "backlog", "tcpkeepalive", "preconnect");

    /** Keys refused whatever their value: they belong to features the proxy does not have. */
    public static final List<String> REFUSED = List.of("hash_tag", "redis_auth", "redis_db");

    private static final Set<String> BOOLEAN_KEYS = Set.of("redis", "auto_eject_hosts", "tcpkeepalive", "preconnect");

    /** The longest connect timeout the proxy accepts ({@code backend.connect_timeout}'s maximum), ms. */
    private static final long MAX_CONNECT_MILLIS = 60_000;

    private final String source;
    private final String pool;
    private final Map<String, Object> keys;

    private NutcrackerConfig(String source, String pool, Map<String, Object> keys) {
        this.source = source;
        this.pool = pool;
        this.keys = keys;
    }

    /** Reads {@code file}; {@code poolName} may be null when the file has one pool. */
    public static NutcrackerConfig load(Path file, String poolName) {
        return parse(read(file), file.toString(), poolName);
    }

    /**
     * The proxy's configuration from one pool of {@code nutcrackerFile}, with the proxy's own settings from {@code
     * proxyFile} (null for none). Without a proxy file, or when it does not set {@code mode}, the proxy runs in {@code
     * pass_through}: it forwards as nutcracker does, with no in-proxy cache.
     *
     * @throws ConfigException naming the file, the pool and the key
     */
    public static ProxyConfig load(Path nutcrackerFile, String poolName, Path proxyFile) {
        NutcrackerConfig nc = load(nutcrackerFile, poolName);
        return proxyFile == null ? nc.toProxyConfig("", "") : nc.toProxyConfig(read(proxyFile), proxyFile.toString());
    }

    /**
     * Reads nutcracker configuration text; {@code source} (the file name) starts every error message.
     *
     * @param poolName the pool to run; may be null when the text has exactly one pool
     * @throws ConfigException naming the source, the pool and the key
     */
    public static NutcrackerConfig parse(String yamlText, String source, String poolName) {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlText);
        } catch (YAMLException e) {
            throw new ConfigException(source + ": not valid YAML: " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> pools) || pools.isEmpty()) {
            throw new ConfigException(source + ": top level is " + ConfigLoader.typeName(root)
                    + " (expected: a mapping of pool names to pools, as in nutcracker.yml)");
        }
        List<String> names = pools.keySet().stream().map(String::valueOf).toList();
        String name = poolName;
        if (name == null) {
            if (names.size() > 1) {
                throw new ConfigException(source + ": " + names.size() + " pools (" + String.join(", ", names)
                        + "): choose one with --pool NAME (the proxy serves one pool)");
            }
            name = names.get(0);
        } else if (!names.contains(name)) {
            throw new ConfigException(source + ": no pool \"" + name + "\" (pools: " + String.join(", ", names) + ")");
        }
        String where = source + ": pool \"" + name + "\": ";
        String chosen = name;
        Object body = pools.get(pools.keySet().stream()
                .filter(k -> String.valueOf(k).equals(chosen))
                .findFirst()
                .orElseThrow());
        if (!(body instanceof Map<?, ?> poolMap)) {
            throw new ConfigException(where.substring(0, where.length() - 2) + " is " + ConfigLoader.typeName(body)
                    + " (expected: a mapping of nutcracker keys)");
        }
        return new NutcrackerConfig(source, name, translate(where, poolMap));
    }

    /** The pool this configuration was read from. */
    public String pool() {
        return pool;
    }

    /** The proxy's keys (flat, as in the proxy's YAML: {@code backend.timeout}) that the pool sets. */
    public Map<String, Object> proxyKeys() {
        return java.util.Collections.unmodifiableMap(keys);
    }

    /**
     * The proxy's configuration: this pool's keys plus the proxy's own YAML {@code proxyYaml} (may be empty) for what
     * nutcracker has no key for (tenants, deadlines, the in-proxy cache, metrics). A key set by both is refused, so
     * neither file silently wins.
     *
     * @throws ConfigException naming the key
     */
    public ProxyConfig toProxyConfig(String proxyYaml, String proxySource) {
        Map<String, Object> flat =
                proxyYaml.isBlank() ? new TreeMap<>() : ConfigLoader.flatKeys(proxyYaml, proxySource);
        for (String k : keys.keySet()) {
            if (flat.containsKey(k)) {
                throw new ConfigException(proxySource + ": " + k + ": also set by " + source + " pool \"" + pool
                        + "\" (expected: the pool's settings in the nutcracker file only)");
            }
        }
        flat.putAll(keys);
        flat.putIfAbsent("mode", "pass_through");
        try {
            return ConfigLoader.fromFlat(flat);
        } catch (ConfigException e) {
            String files = proxySource.isEmpty() ? source : source + " with " + proxySource;
            throw new ConfigException(files + ": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> translate(String where, Map<?, ?> poolMap) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> in = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : poolMap.entrySet()) {
            in.put(String.valueOf(e.getKey()), e.getValue());
        }
        for (Map.Entry<String, Object> e : in.entrySet()) {
            String key = e.getKey();
            Object value = e.getValue();
            if (!HONOURED.contains(key) && !IGNORED.contains(key) && !REFUSED.contains(key)) {
                throw new ConfigException(where + key + ": unknown nutcracker key (expected: one of "
                        + String.join(", ", HONOURED) + ", " + String.join(", ", IGNORED) + ")");
            }
            if (value == null) {
                throw new ConfigException(where + key + ": empty value (expected: a value)");
            }
            if (BOOLEAN_KEYS.contains(key) && !(value instanceof Boolean)) {
                throw new ConfigException(where + key + ": \"" + value + "\" (expected: true or false)");
            }
            if (REFUSED.contains(key)) {
                throw new ConfigException(where + key + ": " + text(value) + " is not supported (supported: "
                        + (key.equals("hash_tag") ? "the whole key is hashed" : "memcached pools, no redis keys")
                        + ")");
            }
        }
        out.put("listen", listen(where, in.get("listen")));
        String hash = in.containsKey("hash") ? text(in.get("hash")) : "fnv1a_64";
        if (!hash.equals("fnv1a_64")) {
            throw new ConfigException(where + "hash: " + hash + " is not supported (supported: fnv1a_64)");
        }
        out.put("pool.hash", hash);
        String distribution = in.containsKey("distribution") ? text(in.get("distribution")) : "ketama";
        if (!distribution.equals("ketama")) {
            throw new ConfigException(
                    where + "distribution: " + distribution + " is not supported (supported: ketama)");
        }
        out.put("pool.distribution", distribution);
        if (Boolean.TRUE.equals(in.get("redis"))) {
            throw new ConfigException(where + "redis: true is not supported (supported: false, memcached's protocol)");
        }
        if (in.containsKey("timeout")) {
            long ms = wholeNumber(where, "timeout", in.get("timeout"), 1, 3_600_000);
            out.put("backend.timeout", ms + "ms");
            // nutcracker's timeout bounds the connect as well as the reply.
            out.put("backend.connect_timeout", Math.min(ms, MAX_CONNECT_MILLIS) + "ms");
        }
        if (in.containsKey("server_connections")) {
            out.put("backend.conns", wholeNumber(where, "server_connections", in.get("server_connections"), 1, 64));
        }
        if (in.containsKey("auto_eject_hosts")) {
            out.put("backend.auto_eject_hosts", in.get("auto_eject_hosts"));
        }
        if (in.containsKey("server_retry_timeout")) {
            out.put(
                    "backend.server_retry_timeout",
                    wholeNumber(where, "server_retry_timeout", in.get("server_retry_timeout"), 1, 86_400_000) + "ms");
        }
        if (in.containsKey("server_failure_limit")) {
            out.put(
                    "backend.server_failure_limit",
                    wholeNumber(where, "server_failure_limit", in.get("server_failure_limit"), 1, 1_000_000));
        }
        out.put("pool.servers", servers(where, in.get("servers")));
        return out;
    }

    private static String listen(String where, Object raw) {
        if (raw == null) {
            throw new ConfigException(where + "listen: missing (expected: host:port)");
        }
        String text = text(raw);
        if (text.startsWith("/")) {
            throw new ConfigException(
                    where + "listen: " + text + " is not supported (supported: host:port; not a" + " unix socket)");
        }
        if (!text.matches("[^\\s:/]+:[0-9]{1,5}")
                || Integer.parseInt(text.substring(text.lastIndexOf(':') + 1)) > 65535) {
            throw new ConfigException(where + "listen: \"" + text + "\" (expected: host:port)");
        }
        return text;
    }

    private static List<String> servers(String where, Object raw) {
        if (!(raw instanceof List<?> list) || list.isEmpty()) {
            throw new ConfigException(where + "servers: " + (raw == null ? "missing" : ConfigLoader.typeName(raw))
                    + " (expected: a list of \"host:port:weight [name]\")");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String text = text(list.get(i));
            if (text.startsWith("/")) {
                throw new ConfigException(where + "servers[" + i + "]: " + text
                        + " is not supported (supported: host:port:weight [name]; not a unix socket)");
            }
            if (!text.matches("[^\\s:/]+:[0-9]{1,5}:[0-9]{1,6}(\\s+\\S+)?")) {
                throw new ConfigException(
                        where + "servers[" + i + "]: \"" + text + "\" (expected: host:port:weight [name])");
            }
            out.add(text);
        }
        return out;
    }

    /** A whole number in {@code min..max} (nutcracker's durations are whole milliseconds). */
    private static long wholeNumber(String where, String key, Object raw, long min, long max) {
        String text = text(raw);
        if (!text.matches("[0-9]{1,12}") || Long.parseLong(text) < min || Long.parseLong(text) > max) {
            throw new ConfigException(
                    where + key + ": \"" + text + "\" (expected: a whole number " + min + " .. " + max + ")");
        }
        return Long.parseLong(text);
    }

    private static String text(Object raw) {
        return String.valueOf(raw).trim();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read " + file + ": " + e, e);
        }
    }
}
