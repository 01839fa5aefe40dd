package io.locus.cassandra.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A regular directory tree as a key sample, for a cluster that has no data yet: below {@code /}, every directory down
 * to {@code depth} levels has {@code fanout} subdirectories {@code d0..d<fanout-1>} and {@code files} files
 * {@code f0..}; directories are keys too (a metadata table holds one row per entry).
 */
final class SyntheticTree {
    private SyntheticTree() {}

    static List<String> paths(int fanout, int depth, int files, long maxKeys) {
        long count = 0;
        long dirsAtLevel = 1; // "/" itself
        for (int level = 0; level <= depth; level++) {
            count += dirsAtLevel * files + (level < depth ? dirsAtLevel * fanout : 0);
            if (count > maxKeys) {
                throw new IllegalArgumentException("--fanout " + fanout + " --depth " + depth + " --files " + files
                        + " makes more than " + maxKeys + " keys (expected: at most " + maxKeys
                        + "; lower --depth or --fanout)");
            }
            dirsAtLevel *= fanout;
        }
        List<String> out = new ArrayList<>((int) count);
        add(out, "", fanout, depth, files);
        return out;
    }

    private static void add(List<String> out, String dir, int fanout, int depthLeft, int files) {
        for (int f = 0; f < files; f++) {
            out.add(dir + "/f" + f);
        }
        if (depthLeft == 0) {
            return;
        }
        for (int d = 0; d < fanout; d++) {
            String sub = dir + "/d" + d;
            out.add(sub);
            add(out, sub, fanout, depthLeft - 1, files);
        }
    }
}
