package io.locus.launcher;

import java.util.ArrayList;
import java.util.List;

/** The demo's status table: one row per host check, columns aligned as {@code column -t} aligns them. */
final class HostCheckRow {
    static final String MARKER = "LOCUS-ROW\t";

    private HostCheckRow() {}

    /** The fields after the marker of the first row line in a host check's stdout, or null if it printed none. */
    static String[] parse(List<String> stdout) {
        for (String line : stdout) {
            if (line.startsWith(MARKER)) {
                return line.substring(MARKER.length()).split("\t", -1);
            }
        }
        return null;
    }

    static String[] failed(String host, String log) {
        return new String[] {host, "FAIL", "-", "no status printed; see " + log};
    }

    /** The table with its header, every column but the last padded to its widest cell plus two spaces. */
    static String table(List<String[]> rows) {
        List<String[]> all = new ArrayList<>();
        all.add(new String[] {"HOST", "STATUS", "SECONDS", "WHAT WAS DONE"});
        all.addAll(rows);
        int columns = all.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] width = new int[columns];
        for (String[] r : all) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] r : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                line.append(r[i]);
                if (i < r.length - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }
}
