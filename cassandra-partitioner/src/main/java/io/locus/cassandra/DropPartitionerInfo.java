package io.locus.cassandra;

import io.locus.cassandra.drop.ReservedRegion;
import io.locus.cassandra.drop.Ring;
import io.locus.cassandra.drop.TokenLayout;
import java.util.ArrayList;
import java.util.List;
import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.locator.InetAddressAndPort;
import org.apache.cassandra.locator.TokenMetadata;
import org.apache.cassandra.service.StorageService;
import org.apache.cassandra.utils.FBUtilities;
import org.apache.cassandra.utils.MBeanWrapper;

/**
 * The partitioner's MBean: read on demand from the node's own state (its configuration and token metadata), so it
 * costs nothing on the read and write paths. Registered through Cassandra's own {@link MBeanWrapper}, which also
 * honours the node's switch for turning MBean registration off.
 */
final class DropPartitionerInfo implements DropPartitionerInfoMBean {
    static final String OBJECT_NAME = "io.locus.cassandra:type=DropPartitioner";

    private DropPartitionerInfo() {}

    /** Registers the MBean once per JVM; a failure is logged by Cassandra and never stops the node. */
    static void register() {
        MBeanWrapper.instance.registerMBean(new DropPartitionerInfo(), OBJECT_NAME, MBeanWrapper.OnException.LOG);
    }

    @Override
    public int getTokenFormat() {
        return TokenLayout.FORMAT_VERSION;
    }

    @Override
    public int getTokenBytes() {
        return TokenLayout.TOKEN_BYTES;
    }

    @Override
    public int getLocalTokens() {
        return daemon()
                ? StorageService.instance.getTokenMetadata().getTokens(self()).size()
                : 0;
    }

    @Override
    public boolean isPlanned() {
        return daemon() && !DatabaseDescriptor.getInitialTokens().isEmpty();
    }

    @Override
    public double getReservedShare() {
        if (!daemon()) {
            return 0;
        }
        TokenMetadata metadata = StorageService.instance.getTokenMetadata();
        List<Token> sorted = metadata.sortedTokens();
        if (sorted.isEmpty()) {
            return 0;
        }
        InetAddressAndPort self = self();
        List<byte[]> tokens = new ArrayList<>(sorted.size());
        List<Integer> owners = new ArrayList<>(sorted.size());
        for (Token t : sorted) {
            tokens.add((byte[]) t.getTokenValue());
            owners.add(self.equals(metadata.getEndpoint(t)) ? 1 : 0);
        }
        return ReservedRegion.owners(new Ring(tokens, owners), 2)[1];
    }

    private static boolean daemon() {
        return DatabaseDescriptor.isDaemonInitialized();
    }

    private static InetAddressAndPort self() {
        return FBUtilities.getBroadcastAddressAndPort();
    }
}
