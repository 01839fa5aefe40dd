package io.locus.memcached.bench;

import java.util.List;

/**
 * The Locus proxy configurations compared. Each adds configuration lines to the common pool, tenants and deadline
 * rules; a mode whose keys the proxy jar does not know yet is reported as not available (the proxy's {@code --check}
 * refuses unknown keys, so this is decided by the jar itself, not by this enum).
 */
public enum LocusMode {
    /**
     * The in-proxy cache off. The build of 22 Nov 2026 has no switch for its scheduler: every keyed request still
     * goes through the per-backend EDF queue and admission, and a refused classic get is answered as a miss.
     */
    PASS_THROUGH("locus", "Locus, local.mode off (no in-proxy cache; scheduler + admission, refusals as misses)",
            List.of("local.mode: \"off\"")),
    /** The deadline-aware in-proxy cache (MicroFuge DLC) on, refusals answered as misses (the default). */
    DLC("locus-dlc", "Locus + DLC (local.mode all; scheduler + admission, refusals as misses)", List.of()),
    /** DLC, EDF scheduling and admission control, refusals answered as {@code SERVER_ERROR} and counted. */
    DLC_DLS("locus-dlc-dls", "Locus + DLC + DLS + admission (classic.reject_mode error: refusals counted)",
            List.of("classic.reject_mode: error"));

    private final String label;
    private final String description;
    private final List<String> yamlLines;

    LocusMode(String label, String description, List<String> yamlLines) {
        this.label = label;
        this.description = description;
        this.yamlLines = yamlLines;
    }

    /** The row name. */
    public String label() {
        return label;
    }

    /** What the row is. */
    public String description() {
        return description;
    }

    /** Top-level YAML lines of this mode. */
    public List<String> yamlLines() {
        return yamlLines;
    }
}
