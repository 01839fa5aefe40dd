package io.locus.hdfs.apply;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;

/**
 * Measures each storage type of a running HDFS: writes and reads a file under a scratch directory pinned to the type
 * by a storage policy, and reports the throughput seen by one client (so the model can start from the operator's own
 * cluster rather than the paper's cloud table). The scratch directory is deleted afterwards.
 */
public final class TierProfiler {
    /** One storage type's measurement. */
    public record Measurement(
            StorageType type, String policy, long bytes, double writeMBps, double readMBps, long capacityBytes) {}

    private final DistributedFileSystem fs;

    public TierProfiler(DistributedFileSystem fs) {
        this.fs = fs;
    }

    /** Storage types the DataNodes have, with their total capacity in bytes. */
    public Map<StorageType, Long> storageTypes() throws IOException {
        Map<StorageType, Long> types = new java.util.TreeMap<>();
        for (DatanodeStorageReport r : fs.getClient().getDatanodeStorageReport(HdfsConstants.DatanodeReportType.LIVE)) {
            for (var s : r.getStorageReports()) {
                types.merge(s.getStorage().getStorageType(), s.getCapacity(), Long::sum);
            }
        }
        return types;
    }

    public List<Measurement> measure(Path scratch, Map<String, String> policyByType, long bytes) throws IOException {
        List<Measurement> out = new ArrayList<>();
        byte[] chunk = new byte[1 << 20];
        try {
            for (Map.Entry<StorageType, Long> t : storageTypes().entrySet()) {
                String policy = policyByType.get(t.getKey().name());
                if (policy == null) {
                    continue;
                }
                Path dir = new Path(scratch, t.getKey().name());
                fs.mkdirs(dir);
                fs.setStoragePolicy(dir, policy);
                Path file = new Path(dir, "probe");
                long t0 = System.nanoTime();
                try (FSDataOutputStream o = fs.create(file, true)) {
                    for (long done = 0; done < bytes; done += chunk.length) {
                        o.write(chunk, 0, (int) Math.min(chunk.length, bytes - done));
                    }
                    o.hsync();
                }
                double write = seconds(t0);
                t0 = System.nanoTime();
                try (FSDataInputStream in = fs.open(file)) {
                    while (in.read(chunk) >= 0) {
                        // read everything
                    }
                }
                double read = seconds(t0);
                double mb = bytes / (1024.0 * 1024);
                out.add(new Measurement(t.getKey(), policy, bytes, mb / write, mb / read, t.getValue()));
            }
        } finally {
            fs.delete(scratch, true);
        }
        return out;
    }

    private static double seconds(long t0) {
        return Math.max(1e-6, (System.nanoTime() - t0) / 1e9);
    }
}
