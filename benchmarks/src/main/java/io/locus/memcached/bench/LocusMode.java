package io.locus.memcached.bench;

import java.util.Map;

/**
 * The Locus proxy configurations compared. Each adds configuration keys to the common pool, tenants and deadline
 * rules; a mode whose keys the proxy jar does not know yet is reported as not available (the proxy's {@code --check}
 * refuses unknown keys, so this is decided by the jar itself, not by this enum).
 */
public enum LocusMode {
    /** {@code mode: pass_through}: no in-proxy cache, no scheduler, no admission; requests forwarded as sent. */
    PASS_THROUGH(
            "locus",
            "Locus pass-through (mode pass_through: no cache, no scheduler, no admission)",
            Map.of("mode", "pass_through")),
    /**
     * The deadline-aware in-proxy cache (MicroFuge DLC) alone: {@code sched.enabled: false}, so misses go to the
     * backends at once, in arrival order, and nothing is refused (the thesis's "DLC" configuration).
     */
    DLC(
            "locus-dlc",
            "Locus + DLC only (sched.enabled false: no scheduler, no admission)",
            Map.of("sched.enabled", false)),
    /** DLC, EDF scheduling and admission control, refusals answered as {@code SERVER_ERROR} and counted. */
    DLC_DLS(
            "locus-dlc-dls",
            "Locus + DLC + DLS + admission (classic.reject_mode error: refusals counted)",
            Map.of("classic.reject_mode", "error"));

    private final String label;
    private final String description;
    private final Map<String, Object> settings;

    LocusMode(String label, String description, Map<String, Object> settings) {
        this.label = label;
        this.description = description;
        this.settings = settings;
    }

    /** The row name. */
    public String label() {
        return label;
    }

    /** What the row is. */
    public String description() {
        return description;
    }

    /** Top-level configuration keys of this mode and their values. */
    public Map<String, Object> settings() {
        return settings;
    }
}
