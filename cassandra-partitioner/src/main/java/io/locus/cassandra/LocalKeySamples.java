package io.locus.cassandra;

import java.util.List;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.db.ColumnFamilyStore;
import org.apache.cassandra.dht.Range;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.schema.Schema;
import org.apache.cassandra.schema.SchemaConstants;
import org.apache.cassandra.schema.TableMetadata;

/**
 * Estimated key counts per token range from this node's SSTables ({@code ColumnFamilyStore.estimatedKeysForRange},
 * from the index samples; memtables are not counted). Host-only: it needs a running daemon.
 */
final class LocalKeySamples {
    private LocalKeySamples() {}

    /**
     * Sampled keys per range over every non-system table on {@link DropPartitioner}, or null if this JVM is not a
     * running node or holds no samples (callers fall back to token-space fractions).
     */
    static double[] count(List<Range<Token>> ranges) {
        if (!DatabaseDescriptor.isDaemonInitialized()) {
            return null;
        }
        double[] counts = new double[ranges.size()];
        double total = 0;
        try {
            for (String ks : Schema.instance.getKeyspaces()) {
                if (SchemaConstants.isSystemKeyspace(ks)) {
                    continue;
                }
                for (TableMetadata table : Schema.instance.getTablesAndViews(ks)) {
                    ColumnFamilyStore cfs = ColumnFamilyStore.getIfExists(ks, table.name);
                    if (table.partitioner != DropPartitioner.instance || cfs == null) {
                        continue;
                    }
                    for (int i = 0; i < ranges.size(); i++) {
                        long n = cfs.estimatedKeysForRange(ranges.get(i));
                        counts[i] += n;
                        total += n;
                    }
                }
            }
        } catch (RuntimeException e) {
            // Ownership is advisory (nodetool status); a table dropped mid-scan must not fail the call.
            return null;
        }
        return total > 0 ? counts : null;
    }
}
