package org.apache.hadoop.hdfs.server.blockmanagement;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetworkTopology;

/**
 * The default placement policy with a public configuration hook. {@code BlockPlacementPolicy.initialize} takes a
 * package-private type ({@code Host2NodesMap}), so a policy outside this package cannot override it; this class sits
 * in Hadoop's package only to pass the Configuration on to {@link #configure}.
 */
public abstract class LocusPlacementPolicyBase extends BlockPlacementPolicyDefault {
    @Override
    public void initialize(
            Configuration conf, FSClusterStats stats, NetworkTopology clusterMap, Host2NodesMap host2datanodeMap) {
        super.initialize(conf, stats, clusterMap, host2datanodeMap);
        configure(conf);
    }

    /** Called once the default policy is initialized, with the NameNode's configuration. */
    protected abstract void configure(Configuration conf);
}
