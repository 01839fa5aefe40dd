package org.apache.hadoop.hdfs.server.datanode;

import java.util.ArrayList;
import java.util.List;

/**
 * Reaches one package-private DataNode method for {@code io.locus.hdfs.fixture.TieredMiniCluster}; it only delegates.
 *
 * <p>Why it exists: {@code BPServiceActor} stops its "Command processor" thread with a single interrupt. When that
 * interrupt lands while the thread is running a command (not waiting on its queue), it is consumed there and the
 * thread parks on the empty queue for the rest of the JVM's life (seen with Hadoop 3.4.3 under load). Interrupting it
 * again once the DataNode is down ends it, because its loop then sees that the DataNode no longer runs.
 */
public final class LocusDataNodeShim {
    private LocusDataNodeShim() {}

    /**
     * For each block pool service actor of {@code dataNode}, an action that interrupts its command processor thread
     * ({@code BPServiceActor.stopCommandProcessingThread}). Collect them before the DataNode shuts down, since shutdown
     * forgets the actors; run them after.
     */
    public static List<Runnable> commandProcessorStoppers(DataNode dataNode) {
        List<Runnable> stoppers = new ArrayList<>();
        for (BPOfferService pool : dataNode.getAllBpOs()) {
            for (BPServiceActor actor : pool.getBPServiceActors()) {
                stoppers.add(actor::stopCommandProcessingThread);
            }
        }
        return stoppers;
    }
}
