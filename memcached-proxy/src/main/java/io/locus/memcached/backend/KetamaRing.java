package io.locus.memcached.backend;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A ketama consistent-hash ring that places every key on the same server as twemproxy (nutcracker 0.5) does with
 * {@code distribution: ketama} and its default {@code hash: fnv1a_64}, so a site can put the proxy where nutcracker
 * was without reshuffling its cache.
 *
 * <p>Immutable and thread-safe. {@link #serverFor(byte[])} is O(log points); the ring has 160 points per server for
 * equal weights (fewer or more in proportion to weight).
 */
/*
 * Design note: what "the same as nutcracker" means (twemproxy src/hashkit/nc_ketama.c, nc_fnv.c, nc_conf.c).
 * - A server's name on the ring is its configured name if it has one ("127.0.0.1:11211:1 cache-a" -> "cache-a"),
 *   else "host" when the port is 11211 (libmemcached compatibility) and "host:port" otherwise.
 * - Points: per server floor(weight/totalWeight * 40 * servers + 1e-10) * 4, computed in float as nutcracker does;
 *   for i in 0..points/4-1, md5("<name>-<i>") gives four points, little-endian 32-bit words of the digest.
 * - Points are sorted by value; a key goes to the first point whose value is >= hash(key), wrapping to the first.
 * - fnv1a_64 in nutcracker keeps only the low 32 bits of the 64-bit offset basis and prime, and each key byte is
 *   read through a (signed) char, so bytes >= 0x80 are sign-extended before the xor. Both quirks are reproduced.
 * The integration test NutcrackerPlacementIT checks all of this against a real nutcracker and real memcached servers.
 */
public final class KetamaRing {
    private static final int POINTS_PER_SERVER = 160;
    private static final int POINTS_PER_HASH = 4;
    private static final int FNV_64_INIT_LOW32 = 0x84222325;
    private static final int FNV_64_PRIME_LOW32 = 0x000001b3;

    /**
     * One server as nutcracker's config names it.
     *
     * @param host the address, as written in the config (an IP or a name)
     * @param port the TCP port
     * @param weight relative weight, >= 1
     * @param name the optional name after the weight, or null
     */
    public record Server(String host, int port, int weight, String name) {
        public Server {
            if (weight < 1) {
                throw new IllegalArgumentException(
                        "server weight " + weight + " for " + host + ":" + port + " (expected: >= 1)");
            }
        }

        /** The string hashed onto the ring, as nutcracker forms it. */
        public String ringName() {
            if (name != null) {
                return name;
            }
            return port == 11211 ? host : host + ":" + port;
        }
    }

    private final List<Server> servers;
    private final long[] points; // (unsigned 32-bit value << 16) | server index: positive, so sorted by value
    private final int[] values;

    /** Builds the ring; servers are referred to by their index in {@code servers}. */
    public KetamaRing(List<Server> servers) {
        if (servers.isEmpty() || servers.size() > 0xFFFF) {
            throw new IllegalArgumentException("ketama ring with " + servers.size() + " servers (expected: 1..65535)");
        }
        this.servers = List.copyOf(servers);
        long totalWeight = 0;
        for (Server s : servers) {
            totalWeight += s.weight();
        }
        List<Long> all = new ArrayList<>();
        MessageDigest md5 = md5();
        for (int index = 0; index < servers.size(); index++) {
            Server s = servers.get(index);
            float pct = (float) s.weight() / (float) totalWeight;
            int pointsForServer = (int)
                    (Math.floor((float) (pct * POINTS_PER_SERVER / 4 * (float) servers.size() + 0.0000000001)) * 4);
            for (int i = 0; i < pointsForServer / POINTS_PER_HASH; i++) {
                byte[] d = md5.digest((s.ringName() + "-" + i).getBytes(StandardCharsets.ISO_8859_1));
                for (int x = 0; x < POINTS_PER_HASH; x++) {
                    long value = ((d[3 + x * 4] & 0xFFL) << 24)
                            | ((d[2 + x * 4] & 0xFFL) << 16)
                            | ((d[1 + x * 4] & 0xFFL) << 8)
                            | (d[x * 4] & 0xFFL);
                    all.add((value << 16) | index);
                }
            }
        }
        points = new long[all.size()];
        for (int i = 0; i < points.length; i++) {
            points[i] = all.get(i);
        }
        Arrays.sort(points);
        values = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            values[i] = (int) (points[i] >>> 16);
        }
    }

    public List<Server> servers() {
        return servers;
    }

    /** The number of points on the ring. */
    public int pointCount() {
        return points.length;
    }

    /** The index (into {@link #servers()}) of the server that owns {@code key}. */
    public int serverFor(byte[] key) {
        if (servers.size() == 1) {
            return 0; // every point is the one server's: no hash needed to find it
        }
        long hash = fnv1a64(key) & 0xFFFFFFFFL;
        int lo = 0;
        int hi = values.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if ((values[mid] & 0xFFFFFFFFL) < hash) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return (int) (points[lo == values.length ? 0 : lo] & 0xFFFF);
    }

    /** {@link #serverFor(byte[])} for a key held as an ISO-8859-1 string (one char per byte). */
    public int serverFor(String key) {
        return serverFor(key.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** nutcracker's {@code hash_fnv1a_64}: 32-bit arithmetic, sign-extended key bytes. */
    public static int fnv1a64(byte[] key) {
        int hash = FNV_64_INIT_LOW32;
        for (byte b : key) {
            hash ^= b; // sign-extends, as (uint32_t) of a signed char does
            hash *= FNV_64_PRIME_LOW32;
        }
        return hash;
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is missing from this JRE (every Java SE runtime must have it)", e);
        }
    }
}
