package io.locus.hdfs.apply;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Hands directories to HDFS's Storage Policy Satisfier when the cluster runs one. Hadoop 3.4 runs it as an external
 * service ({@code dfs.storage.policy.satisfier.mode = external} on the NameNode, {@code hdfs sps} beside it), which
 * holds the Mover's lock file {@value #LOCK} open for as long as it runs; the NameNode accepts
 * {@code satisfyStoragePolicy} only in that mode. A client cannot read the NameNode's configuration, so this looks at
 * the lock and then asks.
 */
final class Satisfier {
    /** The lock the Mover and the external satisfier hold while they run. */
    static final String LOCK = "/system/mover.id";

    private final DistributedFileSystem fs;

    Satisfier(DistributedFileSystem fs) {
        this.fs = fs;
    }

    /**
     * Queues every directory with the satisfier. Returns null when they are all queued, else why the satisfier cannot
     * be used (nothing is queued then, and the caller runs the Mover).
     */
    String queue(List<String> dirs) throws IOException {
        Path lock = new Path(LOCK);
        if (!fs.exists(lock) || fs.isFileClosed(lock)) {
            return "no Storage Policy Satisfier is running: nothing holds " + LOCK;
        }
        for (int i = 0; i < dirs.size(); i++) {
            try {
                fs.satisfyStoragePolicy(new Path(dirs.get(i)));
            } catch (IOException e) {
                String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
                if (why.contains("already called")) {
                    continue; // queued by an earlier apply and not done yet: waiting covers it
                }
                if (i > 0) {
                    throw new IOException(
                            "the Storage Policy Satisfier took " + dirs.subList(0, i) + " but refused " + dirs.get(i)
                                    + ": " + why,
                            e);
                }
                return "the NameNode refused the Storage Policy Satisfier: " + why;
            }
        }
        return null;
    }
}
