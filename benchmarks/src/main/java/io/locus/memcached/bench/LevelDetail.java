package io.locus.memcached.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code --level-detail}: the proxy's service-level controller once a second over the measured window, from the
 * {@code locus_level:<level>:<field>} lines of its {@code stats}: each level's inflation ({@code kappa_level}) and, for
 * that second, its hard offers, the fraction refused, and the refusals by cause (urgent quota; infeasible on an idle
 * backend; late behind its own and higher levels' work; late only because of lower levels' work; other).
 */
final class LevelDetail implements AutoCloseable {
    private static final String[] LEVELS = {"gold", "silver", "bronze"};
    private static final String[] CAUSES = {"tenant_quota", "idle_infeasible", "own_load", "lower_load", "other"};
    private static final String[] SHORT = {"quota", "idle", "own", "lower", "other"};

    private final String row;
    private final Supplier<Map<String, String>> stats;
    private final List<String> lines = new ArrayList<>();
    private final Thread thread;

    private LevelDetail(String row, Supplier<Map<String, String>> stats, long warmupNanos) {
        this.row = row;
        this.stats = stats;
        this.thread = new Thread(() -> poll(warmupNanos), "bench-level-detail");
        thread.setDaemon(true);
    }

    /** Starts polling {@code stats} once a second from the end of the warm-up until {@link #close}. */
    static LevelDetail start(String row, Supplier<Map<String, String>> stats, long warmupNanos) {
        LevelDetail d = new LevelDetail(row, stats, warmupNanos);
        d.thread.start();
        return d;
    }

    private void poll(long warmupNanos) {
        try {
            Thread.sleep(warmupNanos / 1_000_000);
            Map<String, String> last = stats.get();
            for (int second = 1; ; second++) {
                Thread.sleep(1000);
                Map<String, String> now = stats.get();
                if (now.containsKey("locus_level:gold:offers")) {
                    synchronized (lines) {
                        lines.add(line(row, second, last, now));
                    }
                }
                last = now;
            }
        } catch (InterruptedException e) {
            // close(): the row ended
        }
    }

    /** One second of the controller: per level kappa_level, refused/offers, and the refusals by cause. */
    static String line(String row, int second, Map<String, String> before, Map<String, String> after) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "levels %s %2ds:", row, second));
        for (String level : LEVELS) {
            String p = "locus_level:" + level + ":";
            long offers = delta(before, after, p + "offers");
            long[] causes = new long[CAUSES.length];
            long refused = 0;
            for (int i = 0; i < CAUSES.length; i++) {
                causes[i] = delta(before, after, p + CAUSES[i]);
                refused += causes[i];
            }
            b.append(String.format(
                    Locale.ROOT,
                    " %s k=%s %d/%d refused %.1f%% (",
                    level,
                    after.getOrDefault(p + "kappa_level", "-"),
                    refused,
                    offers,
                    offers == 0 ? 0.0 : 100.0 * refused / offers));
            for (int i = 0; i < CAUSES.length; i++) {
                b.append(i == 0 ? "" : " ").append(SHORT[i]).append(' ').append(causes[i]);
            }
            b.append(");");
        }
        return b.toString();
    }

    private static long delta(Map<String, String> before, Map<String, String> after, String key) {
        return Long.parseLong(after.getOrDefault(key, "0")) - Long.parseLong(before.getOrDefault(key, "0"));
    }

    /** The lines so far. */
    List<String> lines() {
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
