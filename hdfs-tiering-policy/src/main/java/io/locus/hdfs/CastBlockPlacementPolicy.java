package io.locus.hdfs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementPolicyDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatus;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockPlacementStatusDefault;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeDescriptor;
import org.apache.hadoop.hdfs.server.blockmanagement.DatanodeStorageInfo;
import org.apache.hadoop.hdfs.server.blockmanagement.LocusPlacementPolicyBase;
import org.apache.hadoop.net.Node;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NameNode side of a CAST plan ({@code dfs.block.replicator.classname}): for a path a plan places, only DataNodes
 * of the planned tier's DataNode group are candidates; that is how two tiers on one storage type (ephSSD and persSSD,
 * both SSD) are told apart. The storage type still comes from the path's storage policy, as for the default policy,
 * so the Mover finds nothing to move after a write.
 *
 * <p>It extends {@link BlockPlacementPolicyDefault} through {@link LocusPlacementPolicyBase}, which only passes the
 * NameNode's configuration on. A DataNode's group is its rack (network location {@code /group}). Unplanned paths, and planned paths whose tier
 * has no group, are placed exactly as {@link BlockPlacementPolicyDefault} places them, and a planned path never gets
 * fewer targets than the default policy would give it: if its group cannot hold them all, the default's choice is
 * used. When a block partly outside its group gets more replicas (apply raises the replication to re-place it), its
 * excess replicas outside the group are the first deleted ({@link RegroupHints}). A missing or unreadable plan logs one
 * error and leaves every path on the default placement until the file
 * changes. The plan file ({@value #PLAN_PATH_KEY}, local or on HDFS) is re-read by a background thread when its
 * modification time or size changes ({@link PlanWatch}); placement itself never touches the file. What it decided is
 * counted in the NameNode's metrics ({@link CastPlacementMetrics}).
 */
public class CastBlockPlacementPolicy extends LocusPlacementPolicyBase {
    /**
     * The plan file (JSON, {@code locus-cast plan --out plan.json}): a local path, or a Hadoop URI such as
     * {@code hdfs://namenode:8020/cast/plan.json} or {@code hdfs:///cast/plan.json} (the NameNode's own file system).
     */
    public static final String PLAN_PATH_KEY = "locus.cast.plan.path";
    /** How often (ms) the plan file's modification time and size are looked at. */
    public static final String PLAN_CHECK_MS_KEY = "locus.cast.plan.check.ms";
    /** HDFS directory under which the plan's job and dataset directories live. */
    public static final String ROOT_KEY = "locus.cast.root";

    public static final String ROOT_DEFAULT = "/cast";
    public static final long PLAN_CHECK_MS_DEFAULT = 1000;

    private static final Logger LOG = LoggerFactory.getLogger(CastBlockPlacementPolicy.class);

    private final ThreadLocal<String> currentGroup = new ThreadLocal<>();
    private final ThreadLocal<String> keepGroup = new ThreadLocal<>();
    private final RegroupHints hints = new RegroupHints();
    private CastPlacementMetrics metrics = new CastPlacementMetrics();
    private PlanWatch watch;
    private int configErrors;

    @Override
    protected void configure(Configuration conf) {
        metrics = CastPlacementMetrics.registered();
        String root = conf.get(ROOT_KEY, ROOT_DEFAULT);
        String p = conf.get(PLAN_PATH_KEY);
        if (p == null || p.trim().isEmpty()) {
            LOG.error("{} is not set: every block is placed by the default policy", PLAN_PATH_KEY);
            configErrors++;
            return;
        }
        watch = new PlanWatch(p.trim(), conf, root, conf.getLong(PLAN_CHECK_MS_KEY, PLAN_CHECK_MS_DEFAULT), metrics);
    }

    private PlacementMap map() {
        PlanWatch w = watch;
        return w == null ? PlacementMap.EMPTY : w.map();
    }

    /** Re-reads the plan file now; false (and the problem logged once) when it is missing or does not validate. */
    public boolean reload() {
        return watch != null && watch.reload();
    }

    /** How many distinct problems the plan had (each logged once). */
    public synchronized int planErrors() {
        return configErrors + (watch == null ? 0 : watch.errors());
    }

    /** Stops watching the plan file (the NameNode never calls this; an embedding test does). */
    public void close() {
        if (watch != null) {
            watch.close();
        }
    }

    /** The DataNode group planned for {@code srcPath}; null or "" when it is not restricted. */
    public String plannedGroup(String srcPath) {
        return map().groupOf(srcPath);
    }

    private static Set<Node> copy(Set<Node> s) {
        return s == null ? null : new HashSet<>(s);
    }

    @Override
    public DatanodeStorageInfo[] chooseTarget(
            String srcPath,
            int numOfReplicas,
            Node writer,
            List<DatanodeStorageInfo> chosen,
            boolean returnChosenNodes,
            Set<Node> excludedNodes,
            long blocksize,
            BlockStoragePolicy storagePolicy,
            EnumSet<AddBlockFlag> flags) {
        return chooseTarget(
                srcPath,
                numOfReplicas,
                writer,
                chosen,
                returnChosenNodes,
                excludedNodes,
                blocksize,
                storagePolicy,
                flags,
                null);
    }

    @Override
    public DatanodeStorageInfo[] chooseTarget(
            String srcPath,
            int numOfReplicas,
            Node writer,
            List<DatanodeStorageInfo> chosen,
            boolean returnChosenNodes,
            Set<Node> excludedNodes,
            long blocksize,
            BlockStoragePolicy storagePolicy,
            EnumSet<AddBlockFlag> flags,
            EnumMap<StorageType, Integer> storageTypes) {
        String group = plannedGroup(srcPath);
        if (group == null || group.isEmpty()) {
            metrics.byDefault.increment();
            return super.chooseTarget(
                    srcPath,
                    numOfReplicas,
                    writer,
                    chosen,
                    returnChosenNodes,
                    excludedNodes,
                    blocksize,
                    storagePolicy,
                    flags,
                    storageTypes);
        }
        DatanodeStorageInfo[] inGroup;
        currentGroup.set(group);
        try {
            inGroup = super.chooseTarget(
                    srcPath,
                    numOfReplicas,
                    writer,
                    chosen,
                    returnChosenNodes,
                    copy(excludedNodes),
                    blocksize,
                    storagePolicy,
                    flags,
                    storageTypes == null ? null : storageTypes.clone());
        } finally {
            currentGroup.remove();
        }
        int wanted = numOfReplicas + (returnChosenNodes && chosen != null ? chosen.size() : 0);
        if (inGroup.length >= wanted) {
            metrics.byPlan.increment();
            if (!returnChosenNodes) {
                hints.afterChoosing(group, chosen, inGroup);
            }
            return inGroup;
        }
        DatanodeStorageInfo[] dflt = super.chooseTarget(
                srcPath,
                numOfReplicas,
                writer,
                chosen,
                returnChosenNodes,
                copy(excludedNodes),
                blocksize,
                storagePolicy,
                flags,
                storageTypes);
        DatanodeStorageInfo[] targets = dflt.length > inGroup.length ? dflt : inGroup;
        metrics.fallbacks.increment();
        if (!returnChosenNodes) {
            hints.afterChoosing(group, chosen, targets);
        }
        return targets;
    }

    /**
     * For a planned path every replica is drawn from the group's rack: the writer's own DataNode first when it is in
     * the group (as the default does), the rest at random inside the group. The default's local-rack / remote-rack
     * order would leave the group on its second replica.
     */
    @Override
    protected Node chooseTargetInOrder(
            int numOfReplicas,
            Node writer,
            Set<Node> excludedNodes,
            long blocksize,
            int maxNodesPerRack,
            List<DatanodeStorageInfo> results,
            boolean avoidStaleNodes,
            boolean newBlock,
            EnumMap<StorageType, Integer> storageTypes)
            throws NotEnoughReplicasException {
        String group = currentGroup.get();
        if (group == null) {
            return super.chooseTargetInOrder(
                    numOfReplicas,
                    writer,
                    excludedNodes,
                    blocksize,
                    maxNodesPerRack,
                    results,
                    avoidStaleNodes,
                    newBlock,
                    storageTypes);
        }
        String scope = "/" + group;
        if (results.isEmpty() && writer != null && scope.equals(writer.getNetworkLocation())) {
            DatanodeStorageInfo local = chooseLocalStorage(
                    writer, excludedNodes, blocksize, maxNodesPerRack, results, avoidStaleNodes, storageTypes, false);
            if (local != null && --numOfReplicas == 0) {
                return writer;
            }
        }
        chooseRandom(
                numOfReplicas,
                scope,
                excludedNodes,
                blocksize,
                maxNodesPerRack,
                results,
                avoidStaleNodes,
                storageTypes);
        return writer;
    }

    /** Inside a planned group every replica may share the group's rack (the default allows one per rack here). */
    @Override
    protected int[] getMaxNodesPerRack(int numOfChosen, int numOfReplicas) {
        int[] limits = super.getMaxNodesPerRack(numOfChosen, numOfReplicas);
        if (currentGroup.get() != null) {
            limits[1] = numOfChosen + limits[0]; // limits[0] is the replicas still to choose
        }
        return limits;
    }

    /**
     * When a block that was partly outside its planned group got replicas inside it (apply raises the replication to
     * get them), its excess replicas outside the group are deleted first; everything else is deleted as the default
     * policy deletes.
     */
    @Override
    public List<DatanodeStorageInfo> chooseReplicasToDelete(
            Collection<DatanodeStorageInfo> availableReplicas,
            Collection<DatanodeStorageInfo> delCandidates,
            int expectedNumOfReplicas,
            List<StorageType> excessTypes,
            DatanodeDescriptor addedNode,
            DatanodeDescriptor delNodeHint) {
        String group = hints.groupToKeep(availableReplicas);
        if (group == null) {
            return super.chooseReplicasToDelete(
                    availableReplicas, delCandidates, expectedNumOfReplicas, excessTypes, addedNode, delNodeHint);
        }
        keepGroup.set(group);
        try {
            // No deletion hint: it could name a replica inside the group.
            return super.chooseReplicasToDelete(
                    availableReplicas, delCandidates, expectedNumOfReplicas, excessTypes, addedNode, null);
        } finally {
            keepGroup.remove();
        }
    }

    @Override
    protected Collection<DatanodeStorageInfo> pickupReplicaSet(
            Collection<DatanodeStorageInfo> moreThanOne,
            Collection<DatanodeStorageInfo> exactlyOne,
            Map<String, List<DatanodeStorageInfo>> rackMap) {
        String group = keepGroup.get();
        if (group != null) {
            List<DatanodeStorageInfo> outside = new ArrayList<>();
            for (DatanodeStorageInfo s : moreThanOne) {
                if (!RegroupHints.inGroup(s, group)) {
                    outside.add(s);
                }
            }
            for (DatanodeStorageInfo s : exactlyOne) {
                if (!RegroupHints.inGroup(s, group)) {
                    outside.add(s);
                }
            }
            if (!outside.isEmpty()) {
                return outside;
            }
        }
        return super.pickupReplicaSet(moreThanOne, exactlyOne, rackMap);
    }

    /**
     * The Balancer asks this before each move it schedules, in its own process and with only DataNodes: the block's
     * replicas (and the target), the source, the target. A block whose every replica sits in one planned group is
     * taken as planned there, as {@link #verifyBlockPlacement} takes it: a move out of that group is refused, moves
     * inside it are left to the default rule. Every other block moves as the default policy lets it.
     */
    @Override
    public boolean isMovable(Collection<DatanodeInfo> candidates, DatanodeInfo source, DatanodeInfo target) {
        List<String> replicaRacks = new ArrayList<>();
        for (DatanodeInfo d : candidates) {
            if (!d.equals(target)) {
                replicaRacks.add(d.getNetworkLocation());
            }
        }
        PlacementMap m = map();
        if (leavesPlannedGroup(replicaRacks, source.getNetworkLocation(), target.getNetworkLocation(), m::plansGroup)) {
            return false;
        }
        return super.isMovable(candidates, source, target);
    }

    /**
     * Whether moving a replica from {@code sourceRack} to {@code targetRack} takes a block whose replicas (in
     * {@code replicaRacks}) all sit in one planned group's rack out of that group. A group {@code G} is rack
     * {@code /G}.
     */
    static boolean leavesPlannedGroup(
            List<String> replicaRacks, String sourceRack, String targetRack, Predicate<String> plannedGroup) {
        if (replicaRacks.isEmpty()
                || sourceRack.equals(targetRack)
                || sourceRack.length() < 2
                || !plannedGroup.test(sourceRack.substring(1))) {
            return false;
        }
        for (String r : replicaRacks) {
            if (!r.equals(sourceRack)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Replicas all inside one DataNode group are where a plan put them: not a rack-spread violation to repair (the
     * repair would pick a node in another group, which this policy refuses, and churn).
     */
    @Override
    public BlockPlacementStatus verifyBlockPlacement(DatanodeInfo[] locs, int numberOfReplicas) {
        if (locs != null && locs.length > 0) {
            String rack = locs[0].getNetworkLocation();
            boolean oneRack = true;
            for (DatanodeInfo d : locs) {
                oneRack &= rack.equals(d.getNetworkLocation());
            }
            if (oneRack && rack.length() > 1 && map().plansGroup(rack.substring(1)) && clusterMap.getNumOfRacks() > 1) {
                return new BlockPlacementStatusDefault(1, 1, clusterMap.getNumOfRacks());
            }
        }
        return super.verifyBlockPlacement(locs, numberOfReplicas);
    }
}
