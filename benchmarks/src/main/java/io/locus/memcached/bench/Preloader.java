package io.locus.memcached.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes every key of a {@link KeySource} to every memcached server directly (not through a shim), as pipelined
 * {@code set .. noreply} ended by {@code mn}. The backends are MicroFuge's store of record (DESIGN.md, "How it is
 * measured": preloaded, sized never to evict); every server holding every key lets direct clients use their own
 * placement.
 */
final class Preloader {
    private Preloader() {}

    /**
     * @return the bytes of all keys and values of one copy (what {@code local.capacity_bytes} is a fraction of)
     * @throws UncheckedIOException if a server cannot be reached or refuses a set
     */
    static long preload(KeySource keys, List<InetSocketAddress> servers) {
        long[] bytes = {0};
        for (InetSocketAddress server : servers) {
            bytes[0] = 0;
            try (TextClient client = new TextClient(server, 30_000)) {
                long[] sinceSync = {0};
                keys.forEachKey(access -> {
                    try {
                        client.write(("set " + access.key() + " 0 0 " + access.valueBytes() + " noreply\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                        client.write(LoadGenerator.valueOf(access.valueBytes()));
                        client.write(new byte[] {'\r', '\n'});
                        bytes[0] += access.key().length() + access.valueBytes();
                        if (++sinceSync[0] == 10_000) {
                            client.sync();
                            sinceSync[0] = 0;
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                client.sync();
            } catch (IOException e) {
                throw new UncheckedIOException("preload of " + server + " failed", e);
            }
        }
        return bytes[0];
    }
}
