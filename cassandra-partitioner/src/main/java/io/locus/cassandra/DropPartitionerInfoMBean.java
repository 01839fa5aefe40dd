package io.locus.cassandra;

/**
 * What a node's JMX (and so {@code jconsole}, {@code jmxterm} or any JMX exporter) tells about its partitioner, under
 * {@value DropPartitionerInfo#OBJECT_NAME}.
 */
public interface DropPartitionerInfoMBean {
    /** The token format (the layout of a 48-byte token): nodes and clients must agree on it. */
    int getTokenFormat();

    /** Bytes per token. */
    int getTokenBytes();

    /** How many tokens this node owns. */
    int getLocalTokens();

    /** Whether this node's tokens were planned ({@code initial_token} in cassandra.yaml) rather than drawn at random. */
    boolean isPlanned();

    /**
     * The share of the reserved region (where every key that is not an absolute path lands: system tables, id-keyed
     * tables) that this node owns on the ring as the node sees it, from 0 to 1.
     */
    double getReservedShare();
}
