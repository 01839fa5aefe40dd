package io.locus.hdfs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;

/**
 * What the NameNode remembers between adding a replica to a block that sits partly outside its planned group and
 * deleting the excess afterwards. Hadoop asks a placement policy which replicas to delete without saying whose block it
 * is, so the group is remembered by the block's replica set (the DataNodes it had plus the ones just chosen): when
 * excess replicas of exactly that set are to be deleted, those outside the group go first. The latest group wins for a
 * set; bounded (least recently used forgotten). A block of another plan with the same replica set that loses a replica
 * at the same time may lose it outside its own group; apply's check finds and repairs that.
 */
final class RegroupHints {
    private static final int MAX_ENTRIES = 10_000;

    private final Map<String, String> groupOfReplicaSet = new LinkedHashMap<String, String>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /** Remembers {@code group} for a block's existing and newly chosen replicas if some lie outside it. */
    synchronized void afterChoosing(
            String group, Collection<DatanodeStorageInfo> existing, DatanodeStorageInfo[] chosen) {
        if (existing == null || existing.isEmpty()) {
            return; // a new block, not one getting more replicas
        }
        List<DatanodeStorageInfo> all = new ArrayList<>(existing);
        all.addAll(Arrays.asList(chosen));
        if (!all.stream().allMatch(s -> inGroup(s, group))) {
            groupOfReplicaSet.put(key(all), group);
        }
    }

    /**
     * The group to keep when deleting excess replicas of this exact replica set, or null. Not consumed: several blocks
     * of a file often share one replica set, and each deletes its own excess.
     */
    synchronized String groupToKeep(Collection<DatanodeStorageInfo> replicas) {
        return groupOfReplicaSet.get(key(replicas));
    }

    static boolean inGroup(DatanodeStorageInfo s, String group) {
        return ("/" + group).equals(s.getDatanodeDescriptor().getNetworkLocation());
    }

    private static String key(Collection<DatanodeStorageInfo> replicas) {
        return replicas.stream()
                .map(s -> s.getDatanodeDescriptor().getDatanodeUuid())
                .distinct()
                .sorted()
                .reduce("", (a, b) -> a + ',' + b);
    }
}
