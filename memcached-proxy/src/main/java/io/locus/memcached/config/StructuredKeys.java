package io.locus.memcached.config;

import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.DeadlineRule;
import io.locus.memcached.tenant.TenantSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The keys whose values are lists or mappings of entries ({@link ConfigKeys#STRUCTURED}: {@code listeners}, {@code
 * pool.servers}, {@code tenants}, {@code deadline_rules}, {@code auth.allowed_tenants}), read into their records.
 * Error messages name the entry by its list index ({@code tenants[2].id}), then the value and what was expected.
 */
final class StructuredKeys {
    private StructuredKeys() {}

    static List<Listener> listeners(Object raw, String listen) {
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
                    ? ConfigLoader.parseDeadline(
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

    static List<BackendAddress> servers(Object raw) {
        if (raw == null) {
            throw new ConfigException(
                    "pool.servers: missing (expected: a list of \"host:port:weight [name]\", at least" + " one)");
        }
        if (!(raw instanceof List<?> list) || list.isEmpty()) {
            throw new ConfigException("pool.servers: " + ConfigLoader.typeName(raw) + " (expected: a non-empty list of"
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

    static List<TenantSpec> tenants(Object raw) {
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
                            where + ".prefixes: " + ConfigLoader.typeName(p) + " (expected: a list of key prefixes)");
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
                    ? ConfigLoader.parseDeadline(
                            where + ".default_deadline",
                            e.get("default_deadline").toString())
                    : null;
            out.add(new TenantSpec(id, prefixes, weight, level, d));
        }
        return out;
    }

    static List<DeadlineRule> deadlineRules(Object raw) {
        List<DeadlineRule> out = new ArrayList<>();
        for (Map<String, Object> e :
                entries("deadline_rules", raw, Set.of("prefix", "deadline"), Set.of("prefix", "deadline"))) {
            String where = (String) e.remove("#where");
            String prefix = e.get("prefix").toString();
            if (prefix.isEmpty()) {
                throw new ConfigException(where + ".prefix: empty (expected: a non-empty key prefix)");
            }
            out.add(new DeadlineRule(
                    prefix,
                    ConfigLoader.parseDeadline(
                            where + ".deadline", e.get("deadline").toString())));
        }
        return out;
    }

    static Map<String, Set<String>> allowedTenants(Object raw) {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        if (!(raw instanceof Map<?, ?> map)) {
            throw new ConfigException("auth.allowed_tenants: " + ConfigLoader.typeName(raw)
                    + " (expected: a mapping user -> list of" + " tenant ids)");
        }
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String where = "auth.allowed_tenants." + e.getKey();
            if (!(e.getValue() instanceof List<?> list)) {
                throw new ConfigException(
                        where + ": " + ConfigLoader.typeName(e.getValue()) + " (expected: a list of tenant ids)");
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
            throw new ConfigException(key + ": " + ConfigLoader.typeName(raw) + " (expected: a list of mappings)");
        }
        for (int i = 0; i < list.size(); i++) {
            String where = key + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new ConfigException(where + ": " + ConfigLoader.typeName(list.get(i))
                        + " (expected: a mapping with keys " + sorted(allowed) + ")");
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
}
