package io.locus.memcached.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipFile;

/** What the harness learns about a Locus build: whether a mode exists in it, and its local-cache hit ratio. */
final class LocusModes {
    /** The class that wires the deadline cache and scheduler into the proxy; absent from a pass-through-only jar. */
    static final String DEADLINE_PATH_CLASS = "io/locus/memcached/deadline/DeadlineHandler.class";

    private LocusModes() {}

    /**
     * Null if the jar can run {@code mode}, else why not. Pass-through always can; the deadline modes need the
     * deadline path in the jar (a jar whose {@code --check} accepts the keys but has no such path would silently
     * measure pass-through under a DLC label).
     */
    static String missingFeature(LocusMode mode, Path jar) {
        if (mode == LocusMode.PASS_THROUGH) {
            return null;
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.getEntry(DEADLINE_PATH_CLASS) != null
                    ? null
                    : "not available yet: " + jar.getFileName() + " has no deadline path ("
                            + DEADLINE_PATH_CLASS.replace('/', '.').replace(".class", "") + " missing)";
        } catch (IOException e) {
            return "cannot read " + jar + ": " + e.getMessage();
        }
    }

    /**
     * The in-proxy cache hit ratio over a run, from the per-tenant {@code locus_tenant:<id>:hits} and
     * {@code :misses} counters of {@code stats} before and after; NaN if the proxy has no such counters or saw no
     * gets.
     */
    static double localHitRatio(Map<String, String> before, Map<String, String> after) {
        long hits = sum(after, ":hits") - sum(before, ":hits");
        long misses = sum(after, ":misses") - sum(before, ":misses");
        return hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses);
    }

    private static long sum(Map<String, String> stats, String suffix) {
        long sum = 0;
        for (Map.Entry<String, String> e : stats.entrySet()) {
            if (e.getKey().startsWith("locus_tenant:") && e.getKey().endsWith(suffix)) {
                try {
                    sum += Long.parseLong(e.getValue().strip());
                } catch (NumberFormatException ignored) {
                    // A non-numeric counter is not a hit count.
                }
            }
        }
        return sum;
    }
}
