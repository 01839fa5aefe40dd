package io.locus.memcached.config;

import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantSpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads and validates the YAML configuration.
 *
 * <p>Every check happens here, at start-up: an unknown key, a value of the wrong type or out of range, a missing
 * required entry, two tenants claiming one prefix. The {@link ConfigException} message starts with the key (with the
 * list index for list entries), then the offending value and what was expected.
 */
public final class ConfigLoader {
    private ConfigLoader() {}

    /** Loads a configuration file. */
    public static ProxyConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e, e);
        }
        return parse(text, file.toString());
    }

    /** Parses configuration text; {@code source} names it in errors. */
    public static ProxyConfig parse(String yamlText, String source) {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(yamlText);
        } catch (YAMLException e) {
            throw new ConfigException("config " + source + " is not valid YAML: " + e.getMessage(), e);
        }
        if (root == null) {
            root = Map.of();
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new ConfigException(
                    "config " + source + ": top level is a " + typeName(root) + " (expected: a mapping of keys)");
        }
        Map<String, Object> flat = new TreeMap<>();
        flatten("", map, flat);
        Map<String, Object> values = scalars(flat);
        List<Listener> listeners = listeners(flat.remove("listeners"), (String) values.get("listen"));
        List<BackendAddress> servers = servers(flat.remove("pool.servers"));
        List<TenantSpec> tenants = tenants(flat.remove("tenants"));
        List<DeadlineRule> rules = deadlineRules(flat.remove("deadline_rules"));
        Map<String, Set<String>> allowed = allowedTenants(flat.remove("auth.allowed_tenants"));
        if (!flat.isEmpty()) {
            String key = flat.keySet().iterator().next();
            throw new ConfigException(
                    key + ": unknown key (expected: one of the keys in the README's configuration table"
                            + suggestion(key) + ")");
        }
        Sections s = new Sections(values);
        ProxyConfig config = new ProxyConfig(
                s.server(),
                listeners,
                s.limits(),
                servers,
                s.backend(),
                s.deadline(),
                s.localCache(),
                s.balance(),
                s.tenant(tenants, rules, allowed));
        try {
            new io.locus.memcached.tenant.TenantResolver(config.tenantPolicy());
        } catch (IllegalArgumentException e) {
            throw new ConfigException("tenants/deadline_rules/hints: " + e.getMessage(), e);
        }
        return config;
    }

    /** Removes every key of {@link ConfigKeys#ALL} from {@code flat} and returns its checked value (or default). */
    static Map<String, Object> scalars(Map<String, Object> flat) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConfigKey k : ConfigKeys.ALL) {
            Object raw = flat.remove(k.name());
            values.put(k.name(), convert(k, raw == null ? k.defaultValue() : raw));
        }
        return values;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, Object> out) {
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = prefix + e.getKey();
            if (e.getValue() instanceof Map<?, ?> inner && !ConfigKeys.STRUCTURED.contains(key)) {
                flatten(key + ".", inner, out);
            } else {
                out.put(key, e.getValue());
            }
        }
    }

    static Object convert(ConfigKey k, Object raw) {
        String text = raw.toString().trim();
        String name = k.name();
        Object v = switch (k.type()) {
            case INT -> {
                if (text.equals("auto") && k.defaultValue().equals("auto")) {
                    yield ConfigKeys.autoThreads();
                }
                if (!text.matches("-?[0-9]{1,18}")) {
                    String or = k.defaultValue().equals("auto") ? " or auto" : "";
                    throw new ConfigException(name + ": \"" + text + "\" (expected: a whole number" + or + ")");
                }
                yield Long.parseLong(text);
            }
            case DOUBLE -> {
                try {
                    yield Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new ConfigException(name + ": \"" + text + "\" (expected: a number such as 0.25)");
                }
            }
            case BOOL -> {
                if (!(raw instanceof Boolean) && !text.equals("true") && !text.equals("false")) {
                    throw new ConfigException(name + ": \"" + text + "\" (expected: true or false)");
                }
                yield Boolean.parseBoolean(text);
            }
            case STRING -> text;
            case LETTER -> {
                if (!text.matches("[A-Za-z]")) {
                    throw new ConfigException(name + ": \"" + text + "\" (expected: one letter)");
                }
                yield text;
            }
            case DURATION -> parseDurationMicros(name, text);
            case SIZE -> parseSizeBytes(name, text);
            case DEADLINE -> parseDeadline(name, text);
            case ENUM -> {
                List<String> allowed = ConfigKeys.ENUM_VALUES.get(name);
                if (!allowed.contains(text)) {
                    throw new ConfigException(name + ": \"" + text + "\" (expected: one of " + allowed + ")");
                }
                yield text;
            }
        };
        if (v instanceof Number n && (n.doubleValue() < k.min() || n.doubleValue() > k.max())) {
            throw new ConfigException(name + ": " + text + " is out of range (expected: " + bound(k, k.min()) + " .. "
                    + bound(k, k.max()) + ")");
        }
        return v;
    }

    private static String bound(ConfigKey k, double v) {
        return switch (k.type()) {
            case DURATION -> (long) v + "us";
            case SIZE -> (long) v + " bytes";
            case INT -> Long.toString((long) v);
            default -> BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        };
    }

    /** {@code 250us}, {@code 20ms}, {@code 1.5s}; a bare number is milliseconds. */
    public static long parseDurationMicros(String key, String text) {
        String t = text.toLowerCase(Locale.ROOT);
        long unit = 1000;
        if (t.endsWith("us")) {
            unit = 1;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("ms")) {
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            unit = 1_000_000;
            t = t.substring(0, t.length() - 1);
        }
        if (!t.matches("[0-9]{1,12}(\\.[0-9]{1,9})?")) {
            throw new ConfigException(key + ": \"" + text + "\" (expected: a duration such as 250us, 20ms or 1s)");
        }
        return new BigDecimal(t).multiply(BigDecimal.valueOf(unit)).longValue();
    }

    /** {@code 512}, {@code 64k}, {@code 1m}, {@code 1gb} (powers of 1024); a bare number is bytes. */
    public static long parseSizeBytes(String key, String text) {
        String t = text.toLowerCase(Locale.ROOT).replace(" ", "");
        long unit = 1;
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        if (t.endsWith("k")) {
            unit = 1L << 10;
        } else if (t.endsWith("m")) {
            unit = 1L << 20;
        } else if (t.endsWith("g")) {
            unit = 1L << 30;
        }
        if (unit > 1) {
            t = t.substring(0, t.length() - 1);
        }
        if (!t.matches("[0-9]{1,15}")) {
            throw new ConfigException(key + ": \"" + text + "\" (expected: a size such as 512, 64k, 1m or 1g)");
        }
        return Long.parseLong(t) * unit;
    }

    static Deadline parseDeadline(String key, String text) {
        try {
            return Deadline.parse(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key + ": " + e.getMessage());
        }
    }

    private static List<Listener> listeners(Object raw, String listen) {
        String[] hp = hostPort("listen", listen);
        List<Listener> out = new ArrayList<>();
        out.add(new Listener(hp[0], Integer.parseInt(hp[1]), null, null));
        for (Map<String, Object> entry :
                entries("listeners", raw, Set.of("host", "port", "tenant", "default_deadline"), Set.of("port"))) {
            String where = (String) entry.remove("#where");
            int port = (int) checkedInt(where + ".port", entry.get("port"), 0, 65535);
            String host = entry.containsKey("host") ? entry.get("host").toString() : hp[0];
            String tenant = entry.containsKey("tenant") ? tenantId(where + ".tenant", entry.get("tenant")) : null;
            Deadline d = entry.containsKey("default_deadline")
                    ? parseDeadline(
                            where + ".default_deadline",
                            entry.get("default_deadline").toString())
                    : null;
            out.add(new Listener(host, port, tenant, d));
        }
        return out;
    }

    private static String[] hostPort(String key, String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0
                || !text.substring(colon + 1).matches("[0-9]{1,5}")
                || Integer.parseInt(text.substring(colon + 1)) > 65535) {
            throw new ConfigException(key + ": \"" + text + "\" (expected: host:port with port 0..65535)");
        }
        return new String[] {text.substring(0, colon), text.substring(colon + 1)};
    }

    private static List<BackendAddress> servers(Object raw) {
        if (raw == null) {
            throw new ConfigException(
                    "pool.servers: missing (expected: a list of \"host:port:weight [name]\", at least" + " one)");
        }
        if (!(raw instanceof List<?> list) || list.isEmpty()) {
            throw new ConfigException("pool.servers: " + typeName(raw) + " (expected: a non-empty list of"
                    + " \"host:port:weight [name]\")");
        }
        List<BackendAddress> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < list.size(); i++) {
            String where = "pool.servers[" + i + "]";
            String text = String.valueOf(list.get(i)).trim();
            String[] words = text.split("\\s+");
            String[] parts = words[0].split(":");
            if (words.length > 2
                    || parts.length != 3
                    || !parts[1].matches("[0-9]{1,5}")
                    || !parts[2].matches("[0-9]{1,6}")
                    || Integer.parseInt(parts[1]) < 1
                    || Integer.parseInt(parts[1]) > 65535
                    || Integer.parseInt(parts[2]) < 1) {
                throw new ConfigException(where + ": \"" + text
                        + "\" (expected: host:port:weight [name], port 1..65535," + " weight >= 1, as in nutcracker)");
            }
            BackendAddress a = new BackendAddress(
                    parts[0],
                    Integer.parseInt(parts[1]),
                    Integer.parseInt(parts[2]),
                    words.length == 2 ? words[1] : null);
            if (!seen.add(a.host() + ":" + a.port())) {
                throw new ConfigException(where + ": " + a.host() + ":" + a.port() + " is listed twice (expected: each"
                        + " backend once)");
            }
            out.add(a);
        }
        return out;
    }

    private static List<TenantSpec> tenants(Object raw) {
        List<TenantSpec> out = new ArrayList<>();
        for (Map<String, Object> e : entries(
                "tenants", raw, Set.of("id", "prefixes", "weight", "level", "default_deadline"), Set.of("id"))) {
            String where = (String) e.remove("#where");
            String id = tenantId(where + ".id", e.get("id"));
            List<String> prefixes = new ArrayList<>();
            Object p = e.get("prefixes");
            if (p != null) {
                if (!(p instanceof List<?> pl)) {
                    throw new ConfigException(
                            where + ".prefixes: " + typeName(p) + " (expected: a list of key prefixes)");
                }
                for (Object o : pl) {
                    if (o == null || o.toString().isEmpty()) {
                        throw new ConfigException(where + ".prefixes: empty prefix (expected: non-empty key prefixes)");
                    }
                    prefixes.add(o.toString());
                }
            }
            int weight =
                    e.containsKey("weight") ? (int) checkedInt(where + ".weight", e.get("weight"), 1, 1_000_000) : 1;
            String level = e.containsKey("level") ? e.get("level").toString() : "default";
            Deadline d = e.containsKey("default_deadline")
                    ? parseDeadline(
                            where + ".default_deadline",
                            e.get("default_deadline").toString())
                    : null;
            out.add(new TenantSpec(id, prefixes, weight, level, d));
        }
        return out;
    }

    private static List<DeadlineRule> deadlineRules(Object raw) {
        List<DeadlineRule> out = new ArrayList<>();
        for (Map<String, Object> e :
                entries("deadline_rules", raw, Set.of("prefix", "deadline"), Set.of("prefix", "deadline"))) {
            String where = (String) e.remove("#where");
            String prefix = e.get("prefix").toString();
            if (prefix.isEmpty()) {
                throw new ConfigException(where + ".prefix: empty (expected: a non-empty key prefix)");
            }
            out.add(new DeadlineRule(
                    prefix, parseDeadline(where + ".deadline", e.get("deadline").toString())));
        }
        return out;
    }

    private static Map<String, Set<String>> allowedTenants(Object raw) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new ConfigException("auth.allowed_tenants: " + typeName(raw) + " (expected: a mapping user -> list of"
                    + " tenant ids)");
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String where = "auth.allowed_tenants." + e.getKey();
            if (!(e.getValue() instanceof List<?> list)) {
                throw new ConfigException(where + ": " + typeName(e.getValue()) + " (expected: a list of tenant ids)");
            }
            Set<String> ids = new LinkedHashSet<>();
            for (Object o : list) {
                ids.add(tenantId(where, o));
            }
            out.put(e.getKey().toString(), ids);
        }
        return out;
    }

    /** The entries of a list of mappings, each with only {@code allowed} keys and all {@code required} ones. */
    private static List<Map<String, Object>> entries(
            String key, Object raw, Set<String> allowed, Set<String> required) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (raw == null) {
            return out;
        }
        if (!(raw instanceof List<?> list)) {
            throw new ConfigException(key + ": " + typeName(raw) + " (expected: a list of mappings)");
        }
        for (int i = 0; i < list.size(); i++) {
            String where = key + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new ConfigException(where + ": " + typeName(list.get(i)) + " (expected: a mapping with keys "
                        + sorted(allowed) + ")");
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String k = String.valueOf(e.getKey());
                if (!allowed.contains(k)) {
                    throw new ConfigException(
                            where + "." + k + ": unknown key (expected: one of " + sorted(allowed) + ")");
                }
                if (e.getValue() == null) {
                    throw new ConfigException(where + "." + k + ": empty value (expected: a value)");
                }
                entry.put(k, e.getValue());
            }
            for (String r : sorted(required)) {
                if (!entry.containsKey(r)) {
                    throw new ConfigException(
                            where + "." + r + ": missing (expected: required in every " + key + " entry)");
                }
            }
            entry.put("#where", where);
            out.add(entry);
        }
        return out;
    }

    private static long checkedInt(String where, Object raw, long min, long max) {
        String text = String.valueOf(raw);
        if (!text.matches("-?[0-9]{1,18}") || Long.parseLong(text) < min || Long.parseLong(text) > max) {
            throw new ConfigException(
                    where + ": \"" + text + "\" (expected: a whole number " + min + " .. " + max + ")");
        }
        return Long.parseLong(text);
    }

    private static String tenantId(String where, Object raw) {
        String id = String.valueOf(raw);
        if (!TenantSpec.isValidId(id)) {
            throw new ConfigException(where + ": \"" + id + "\" (expected: a tenant id of 1..64 of A-Z a-z 0-9 . _ -)");
        }
        return id;
    }

    private static List<String> sorted(Set<String> s) {
        return s.stream().sorted().toList();
    }

    private static String suggestion(String key) {
        String best = null;
        int bestDistance = 3;
        for (ConfigKey k : ConfigKeys.ALL) {
            int d = distance(key, k.name());
            if (d < bestDistance) {
                bestDistance = d;
                best = k.name();
            }
        }
        return best == null ? "" : "; did you mean " + best + "?";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static String typeName(Object o) {
        if (o == null) {
            return "nothing";
        }
        if (o instanceof Map) {
            return "a mapping";
        }
        if (o instanceof List) {
            return "a list";
        }
        return "\"" + o + "\"";
    }
}
