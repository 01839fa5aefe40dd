package io.locus.hdfs.cast.io;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value read from a YAML or JSON file, with the file name and the key path it came from, so that every complaint
 * about it names the file, the key, the value and what was expected.
 */
final class Node {
    private final String file;
    private final String path;
    private final Object value;

    Node(String file, String path, Object value) {
        this.file = file;
        this.path = path;
        this.value = value;
    }

    String path() {
        return path;
    }

    Object raw() {
        return value;
    }

    boolean isMissing() {
        return value == null;
    }

    InputException error(String expected) {
        return new InputException(file, path, value, expected);
    }

    /** A map, refusing keys not in {@code allowed}. */
    Node object(Collection<String> allowed) {
        if (!(value instanceof Map<?, ?> m)) {
            throw error("a mapping of keys " + allowed);
        }
        for (Object k : m.keySet()) {
            if (!allowed.contains(String.valueOf(k))) {
                throw new InputException(file, child(String.valueOf(k)), m.get(k), "one of the keys " + allowed);
            }
        }
        return this;
    }

    Set<String> keys() {
        if (!(value instanceof Map<?, ?> m)) {
            throw error("a mapping");
        }
        List<String> keys = new ArrayList<>();
        m.keySet().forEach(k -> keys.add(String.valueOf(k)));
        return new java.util.LinkedHashSet<>(keys);
    }

    Node get(String key) {
        if (!(value instanceof Map<?, ?> m)) {
            throw error("a mapping");
        }
        return new Node(file, child(key), m.get(key));
    }

    Node required(String key) {
        Node n = get(key);
        if (n.isMissing()) {
            throw n.error("a value (the key is required)");
        }
        return n;
    }

    List<Node> list() {
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> l)) {
            throw error("a list");
        }
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            out.add(new Node(file, path + "[" + i + "]", l.get(i)));
        }
        return out;
    }

    Map<String, Node> entries() {
        Map<String, Node> out = new LinkedHashMap<>();
        for (String k : keys()) {
            out.put(k, get(k));
        }
        return out;
    }

    String string() {
        if (!(value instanceof String s) || s.isBlank()) {
            throw error("a non-empty string");
        }
        return s;
    }

    String string(String dflt) {
        return isMissing() ? dflt : string();
    }

    double number(double min, double max) {
        if (!(value instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw error("a number in [" + min + ", " + max + "]");
        }
        double d = n.doubleValue();
        if (d < min || d > max) {
            throw error("a number in [" + min + ", " + max + "]");
        }
        return d;
    }

    double number(double min, double max, double dflt) {
        return isMissing() ? dflt : number(min, max);
    }

    int integer(int min, int max) {
        if (!(value instanceof Integer || value instanceof Long)) {
            throw error("an integer in [" + min + ", " + max + "]");
        }
        long v = ((Number) value).longValue();
        if (v < min || v > max) {
            throw error("an integer in [" + min + ", " + max + "]");
        }
        return (int) v;
    }

    int integer(int min, int max, int dflt) {
        return isMissing() ? dflt : integer(min, max);
    }

    boolean bool(boolean dflt) {
        if (isMissing()) {
            return dflt;
        }
        if (!(value instanceof Boolean b)) {
            throw error("true or false");
        }
        return b;
    }

    private String child(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }
}
