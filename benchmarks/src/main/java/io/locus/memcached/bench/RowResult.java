package io.locus.memcached.bench;

/**
 * One row of the comparison table.
 *
 * @param label short row name ({@code direct}, {@code twemproxy}, {@code locus}, ...)
 * @param description what the row is
 * @param result the load generator's outcome; null if the row could not run
 * @param localHitRatio the proxy's own in-proxy cache hit ratio from its {@code stats}; NaN if it has none
 * @param unavailable why the row did not run; null if it ran
 */
public record RowResult(
        String label, String description, LoadGenerator.Result result, double localHitRatio, String unavailable) {
    /** Whether the row ran. */
    public boolean ran() {
        return result != null;
    }
}
