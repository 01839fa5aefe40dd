package io.locus.memcached.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code --variant} of {@code proxy-memcaslap}: its name, its configuration lines as settings, its JVM options,
 * and the proxy jar it runs (null: the base's); a pass-through and a full proxy run with them beside the unchanged ones.
 * Another jar compares two builds of the proxy in the same run.
 */
record MemcaslapVariant(String name, Map<String, Object> settings, List<String> jvmArgs, Path jar) {
    /**
     * {@code NAME=LINE[;LINE...]}, each line a {@code key: value} configuration line, {@code -J<JVM option>} or
     * {@code -jar <proxy jar>}.
     *
     * @throws IllegalArgumentException naming the spec if NAME is missing or not of letters, digits, '_', '.', '-', or
     *     naming the jar if it is not a file
     */
    static MemcaslapVariant parse(String spec) {
        int eq = spec.indexOf('=');
        if (eq < 1 || !spec.substring(0, eq).matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException(
                    "--variant " + spec + " (expected: NAME=LINE[;LINE...], NAME of letters, digits, '_', '.', '-')");
        }
        Map<String, Object> settings = new LinkedHashMap<>();
        List<String> jvm = new ArrayList<>();
        Path jar = null;
        for (String line : spec.substring(eq + 1).split(";")) {
            String l = line.strip();
            if (l.startsWith("-jar ")) {
                jar = Path.of(l.substring(5).strip());
                if (!Files.isRegularFile(jar)) {
                    throw new IllegalArgumentException(
                            "--variant " + spec + ": jar " + jar + " is not a file (expected: a proxy jar)");
                }
            } else if (l.startsWith("-J")) {
                jvm.add(l.substring(2));
            } else if (!l.isEmpty()) {
                settings.putAll(LocusProxy.parseLine(l));
            }
        }
        return new MemcaslapVariant(spec.substring(0, eq), settings, jvm, jar);
    }

    /** The jar this variant runs: its own, or {@code base}. */
    Path jarOr(Path base) {
        return jar != null ? jar : base;
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
