package io.locus.memcached.config;

import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantSpec;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
        return fromFlat(flatKeys(yamlText, source));
    }

    /** The keys of configuration text, nested mappings joined with dots ({@code backend.timeout}), not yet checked. */
    static Map<String, Object> flatKeys(String yamlText, String source) {
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
        return flat;
    }

    /** Checks flat keys ({@link #flatKeys}) and builds the configuration; consumes {@code flat}. */
    static ProxyConfig fromFlat(Map<String, Object> flat) {
        Map<String, Object> values = scalars(flat);
        List<Listener> listeners = StructuredKeys.listeners(flat.remove("listeners"), (String) values.get("listen"));
        List<BackendAddress> servers = StructuredKeys.servers(flat.remove("pool.servers"));
        List<TenantSpec> tenants = StructuredKeys.tenants(flat.remove("tenants"));
        List<DeadlineRule> rules = StructuredKeys.deadlineRules(flat.remove("deadline_rules"));
        Map<String, Set<String>> allowed = StructuredKeys.allowedTenants(flat.remove("auth.allowed_tenants"));
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
        if (config.backend().ejection().autoEjectHosts() && config.balance().active()) {
            throw new ConfigException("backend.auto_eject_hosts: true with lb.enabled or replication_factor above 1"
                    + " (expected: false; the balancer's replicas and moved buckets do not follow an ejection)");
        }
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
                // YAML 1.1 reads an unquoted off (and no, false) as the boolean false: it means the value off.
                if (Boolean.FALSE.equals(raw) && allowed.contains("off")) {
                    yield "off";
                }
                if (raw instanceof Boolean) {
                    throw new ConfigException(name + ": " + text + " (YAML reads an unquoted on, yes, true, off, no or"
                            + " false as a boolean; expected: one of " + allowed + ")");
                }
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

    static String typeName(Object o) {
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
