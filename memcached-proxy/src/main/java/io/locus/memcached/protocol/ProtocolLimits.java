package io.locus.memcached.protocol;

/**
 * Bounds the decoders enforce.
 *
 * @param maxKeyBytes longest key, in bytes; memcached's own limit is 250
 * @param maxLineBytes longest command line without its {@code \r\n}, in bytes; a multi-get of 10,000 keys of 250
 *     bytes needs about 2.4 MiB (memcached itself puts no bound on a get's keys)
 * @param maxItemSizeBytes largest data block, in bytes; memcached's default item size limit is 1 MiB
 */
public record ProtocolLimits(int maxKeyBytes, int maxLineBytes, int maxItemSizeBytes) {
    /** memcached's defaults: 250-byte keys, 1 MiB items; lines up to 4 MiB (a get of 10,000 keys of 250 bytes). */
    public static final ProtocolLimits DEFAULTS = new ProtocolLimits(250, 4 * 1024 * 1024, 1024 * 1024);

    public ProtocolLimits {
        if (maxKeyBytes < 1 || maxKeyBytes > 250) {
            throw new IllegalArgumentException("maxKeyBytes: " + maxKeyBytes + " (expected: 1..250)");
        }
        if (maxLineBytes < 300) {
            throw new IllegalArgumentException("maxLineBytes: " + maxLineBytes + " (expected: >= 300)");
        }
        if (maxItemSizeBytes < 1) {
            throw new IllegalArgumentException("maxItemSizeBytes: " + maxItemSizeBytes + " (expected: >= 1)");
        }
    }
}
