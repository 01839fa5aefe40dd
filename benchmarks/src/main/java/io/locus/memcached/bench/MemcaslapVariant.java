package io.locus.memcached.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code --variant} of {@code proxy-memcaslap}: its name, its configuration lines as settings, its JVM options; a
 * pass-through and a full proxy run with them beside the unchanged ones.
 */
record MemcaslapVariant(String name, Map<String, Object> settings, List<String> jvmArgs) {
    /**
     * {@code NAME=LINE[;LINE...]}, each line a {@code key: value} configuration line or {@code -J<JVM option>}.
     *
     * @throws IllegalArgumentException naming the spec if NAME is missing or not of letters, digits, '_', '.', '-'
     */
    static MemcaslapVariant parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 1 || !spec.substring(0, eq).matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException(
                    "--variant " + spec + " (expected: NAME=LINE[;LINE...], NAME of letters, digits, '_', '.', '-')");
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        List<String> jvm = new ArrayList<>();
        for (String line : spec.substring(eq + 1).split(";")) {
            String l = line.strip();
            if (l.startsWith("-J")) {
                jvm.add(l.substring(2));
            } else if (!l.isEmpty()) {
                settings.putAll(LocusProxy.parseLine(l));
            }
        }
        return new MemcaslapVariant(spec.substring(0, eq), settings, jvm);
    }

    /** The variants' proxies, closed together. */
    static final class Proxies implements AutoCloseable {
        private final Map<String, LocusProxy> proxies = new LinkedHashMap<>();

        void add(String label, LocusProxy p) {
            proxies.put(label, p);
        }

        LocusProxy find(String label) {
            return proxies.get(label);
        }

        @Override
        public void close() {
            proxies.values().forEach(LocusProxy::close);
        }
    }
}
