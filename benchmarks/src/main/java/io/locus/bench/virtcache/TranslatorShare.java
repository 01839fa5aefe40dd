package io.locus.bench.virtcache;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A translator's share of a brick's CPU samples, from {@code perf script -F ip,sym,dso} of a recording made with
 * {@code --call-graph dwarf}: each sample belongs to the innermost Gluster translator or library function on its stack,
 * where the C library, the kernel, the vDSO and the loader count for their caller, and so do libglusterfs's memory,
 * inode-context and logging helpers. A sample owned by the translator is then sorted by what it was doing: in a
 * mutex, in {@code clock_gettime}, in Gluster's allocator and its memory accounting, or in the translator's own code.
 * Pure: text in, counts out.
 *
 * @param samples all samples of the recording
 * @param owned the samples owned by the translator
 * @param byKind the owned samples by what they were doing, most first
 */
record TranslatorShare(long samples, long owned, Map<String, Long> byKind) {

    static final String OWN_CODE = "its own code";
    static final String MUTEXES = "mutexes";
    static final String CLOCK = "clock_gettime";
    static final String ALLOCATOR = "GF_CALLOC/GF_FREE and memory accounting";
    static final String OTHER = "other calls";

    private static final Pattern FRAME = Pattern.compile("^\\s*(\\S+) (.*?) \\((/.*|\\[.*])\\)$");
    private static final Pattern HELPER = Pattern.compile(
            "__gf_calloc|__gf_free|__gf_malloc|__gf_realloc|gf_mem_|mem_get|mem_put|inode_ctx|_gf_log|_gf_msg");

    /**
     * Attributes the samples of {@code script} to {@code translator} (a shared object's file name, such as
     * {@code virtcache.so}).
     */
    static TranslatorShare of(String script, String translator) {
        long samples = 0;
        long owned = 0;
        Map<String, Long> kinds = new LinkedHashMap<>();
        for (String kind : new String[] {OWN_CODE, MUTEXES, CLOCK, ALLOCATOR, OTHER}) {
            kinds.put(kind, 0L);
        }
        for (String block : script.split("\\n\\s*\\n")) {
            String[] lines = block.strip().split("\\n");
            if (lines.length == 0 || lines[0].isBlank()) {
                continue;
            }
            samples++;
            String owner = null;
            for (String line : lines) {
                Matcher m = FRAME.matcher(line);
                if (!m.matches()) {
                    continue; // an inlined frame: its function shows in the next frame's address too
                }
                String file = fileName(m.group(3));
                if (passesThrough(file)
                        || (file.startsWith("libglusterfs")
                                && HELPER.matcher(m.group(2)).find())) {
                    continue;
                }
                owner = file;
                break;
            }
            if (translator.equals(owner)) {
                owned++;
                kinds.merge(kind(block, translator, lines), 1L, Long::sum);
            }
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        kinds.entrySet().stream()
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return new TranslatorShare(samples, owned, sorted);
    }

    /** The owned share of all samples, in percent; 0 without samples. */
    double percent() {
        return percent(owned);
    }

    double percent(long count) {
        return samples == 0 ? 0 : 100.0 * count / samples;
    }

    private static String kind(String block, String translator, String[] lines) {
        if (block.contains("clock_gettime")) {
            return CLOCK;
        }
        if (block.contains("__gf_calloc") || block.contains("__gf_free") || block.contains("gf_mem_")) {
            return ALLOCATOR;
        }
        if (block.contains("mutex") || block.contains("lll_lock") || block.contains("futex")) {
            return MUTEXES;
        }
        for (String line : lines) {
            Matcher m = FRAME.matcher(line);
            if (m.matches()) {
                return fileName(m.group(3)).equals(translator) ? OWN_CODE : OTHER;
            }
        }
        return OTHER;
    }

    /** A shared object's file name, without its directory or a " (deleted)" mark of a replaced file. */
    private static String fileName(String dso) {
        String name = dso.replace(" (deleted)", "");
        return name.substring(name.lastIndexOf('/') + 1);
    }

    private static boolean passesThrough(String file) {
        return file.startsWith("libc.so")
                || file.startsWith("ld-linux")
                || file.startsWith("libpthread")
                || file.contains("kernel")
                || file.contains("vdso");
    }
}
