package io.locus.hdfs.apply;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Brings replicas into their planned DataNode group. The Mover and the Storage Policy Satisfier choose targets by
 * storage type only, so a block can sit on the right type in the wrong group. For each file with such a block this
 * raises the file's replication by the most replicas any of its blocks has outside the group, waits until the NameNode
 * has added them (its placement policy draws them inside the group), and sets the replication back: the policy then
 * deletes the excess replicas outside the group first. A file never has fewer replicas than its replication, and only
 * replicas the NameNode counts as excess are deleted.
 */
final class GroupPlacer {
    private final DistributedFileSystem fs;

    GroupPlacer(DistributedFileSystem fs) {
        this.fs = fs;
    }

    /** Replicas outside {@code group}, per block of {@code file}. */
    int[] misplaced(Path file, String group) throws IOException {
        BlockLocation[] blocks = fs.getFileBlockLocations(file, 0, Long.MAX_VALUE);
        int[] out = new int[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            for (String p : blocks[i].getTopologyPaths()) {
                out[i] += p.startsWith("/" + group + "/") ? 0 : 1;
            }
        }
        return out;
    }

    /** Files under {@code dir} with some replica outside {@code group}. */
    List<Path> misplacedFiles(Path dir, String group) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!fs.exists(dir)) {
            return out;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            Path f = it.next().getPath();
            if (max(misplaced(f, group)) > 0) {
                out.add(f);
            }
        }
        return out;
    }

    /**
     * Re-places {@code file}'s replicas into {@code group}; returns how many replicas are still outside it afterwards.
     * Gives up on a step after {@code stepTimeoutNanos} (the replication is restored whatever happens).
     */
    int regroup(Path file, String group, long stepTimeoutNanos) throws IOException, InterruptedException {
        int before = max(misplaced(file, group));
        if (before == 0) {
            return 0;
        }
        short replication = fs.getFileStatus(file).getReplication();
        fs.setReplication(file, (short) (replication + before));
        try {
            awaitReplicas(file, replication + before, stepTimeoutNanos);
        } finally {
            fs.setReplication(file, replication);
        }
        awaitReplicas(file, replication, stepTimeoutNanos);
        return max(misplaced(file, group));
    }

    /** Waits until every block of {@code file} has exactly {@code replicas} replicas, or the time is up. */
    private void awaitReplicas(Path file, int replicas, long timeoutNanos) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (System.nanoTime() < deadline) {
            boolean done = true;
            for (BlockLocation b : fs.getFileBlockLocations(file, 0, Long.MAX_VALUE)) {
                done &= b.getHosts().length == replicas;
            }
            if (done) {
                return;
            }
            Thread.sleep(200);
        }
    }

    private static int max(int[] a) {
        int m = 0;
        for (int x : a) {
            m = Math.max(m, x);
        }
        return m;
    }
}
