package io.locus.memcached.balance;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ketama ring cut into virtual buckets (MBal's cachelets), with a current owner per bucket: the unit Phase 3
 * moves (BALANCE.md, "Phase 3", MBal §3.4).
 *
 * <p>Layout: the ring has nutcracker's points (160 per server at equal weights). Arc {@code i} is the hash interval
 * {@code (value[i-1], value[i]]} (wrapping for i = 0) and belongs to the server of point i, exactly as twemproxy
 * places keys. Each server's arcs, in ring order, are dealt round-robin into {@code lb.cachelets_per_backend}
 * virtual buckets, so a bucket is spread around the ring and holds about 1/16 of its server's hash range. Bucket ids
 * are {@code server * cacheletsPerBackend + j}; the bucket's home is that server.
 *
 * <p>Guarantees: while no bucket has moved, {@link #ownerOf(byte[])} equals nutcracker's (and
 * {@code io.locus.memcached.backend.KetamaRing}'s) server for every key; arcs and buckets never change after
 * construction, only owners do. Reads are lock-free after construction except {@link #owner}, which reads a volatile
 * array snapshot; {@link #setOwner} is synchronised and publishes a new snapshot.
 */
/*
 * Design note. A first sketch used murmur3(key) mod 4096 for the virtual nodes. That would move most keys
 * away from the servers a nutcracker-compatible ring puts them on, so it would force a full cache refill when the
 * proxy replaces nutcracker. Cutting the ketama ring itself keeps placement identical until the balancer moves a
 * bucket, and still gives the fixed, small unit of movement MBal uses (16 buckets per backend, [MBal §4.1]).
 * The point computation repeats io.locus.memcached.backend.KetamaRing's (this package may not depend on the proxy
 * package); VirtualBucketTableTest checks the two agree key by key.
 */
public final class VirtualBucketTable {
    private static final int POINTS_PER_SERVER = 160;
    private static final int FNV_64_INIT_LOW32 = 0x84222325;
    private static final int FNV_64_PRIME_LOW32 = 0x000001b3;

    private final int servers;
    private final int bucketsPerServer;
    private final int[] pointValues;
    private final int[] arcServer;
    private final int[] arcBucket;
    private final double[] bucketShare;
    private volatile int[] owners;

    /**
     * A server as nutcracker names it on the ring.
     *
     * @param ringName {@code name} if configured, else {@code host} for port 11211, else {@code host:port}
     * @param weight relative weight, >= 1
     */
    public record RingServer(String ringName, int weight) {
        public RingServer {
            if (weight < 1) {
                throw new IllegalArgumentException(
                        "server weight " + weight + " for " + ringName + " (expected: >= 1)");
            }
        }
    }

    /**
     * Builds the table; servers are referred to by their index in {@code ring}.
     *
     * @throws IllegalArgumentException for no servers, more than 65535, or a bad bucket count
     */
    public VirtualBucketTable(List<RingServer> ring, int bucketsPerServer) {
        if (ring.isEmpty() || ring.size() > 0xFFFF) {
            throw new IllegalArgumentException("ketama ring with " + ring.size() + " servers (expected: 1..65535)");
        }
        if (bucketsPerServer < 1) {
            throw new IllegalArgumentException("lb.cachelets_per_backend: " + bucketsPerServer + " (expected: >= 1)");
        }
        this.servers = ring.size();
        this.bucketsPerServer = bucketsPerServer;
        long[] points = ketamaPoints(ring);
        pointValues = new int[points.length];
        arcServer = new int[points.length];
        for (int i = 0; i < points.length; i++) {
            pointValues[i] = (int) (points[i] >>> 16);
            arcServer[i] = (int) (points[i] & 0xFFFF);
        }
        arcBucket = new int[points.length];
        bucketShare = new double[servers * bucketsPerServer];
        int[] dealt = new int[servers];
        for (int i = 0; i < points.length; i++) {
            int s = arcServer[i];
            int bucket = s * bucketsPerServer + dealt[s]++ % bucketsPerServer;
            arcBucket[i] = bucket;
            // Arc 0 wraps: it starts at the last point, one full turn (2^32) back.
            long lo = i == 0
                    ? (pointValues[points.length - 1] & 0xFFFFFFFFL) - (1L << 32)
                    : pointValues[i - 1] & 0xFFFFFFFFL;
            bucketShare[bucket] += ((pointValues[i] & 0xFFFFFFFFL) - lo) / (double) (1L << 32);
        }
        int[] initial = new int[bucketShare.length];
        for (int k = 0; k < initial.length; k++) {
            initial[k] = k / bucketsPerServer;
        }
        owners = initial;
    }

    /** Number of servers (backends) on the ring. */
    public int servers() {
        return servers;
    }

    /** Number of virtual buckets: servers × {@code lb.cachelets_per_backend}. */
    public int bucketCount() {
        return bucketShare.length;
    }

    /** Number of ring arcs (points). */
    public int arcCount() {
        return pointValues.length;
    }

    /** The arc holding {@code key}: the first point whose value is >= the key's hash, wrapping to arc 0. */
    public int arcOf(byte[] key) {
        long hash = fnv1a64(key) & 0xFFFFFFFFL;
        int lo = 0;
        int hi = pointValues.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if ((pointValues[mid] & 0xFFFFFFFFL) < hash) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo == pointValues.length ? 0 : lo;
    }

    /** The virtual bucket of {@code key}. */
    public int bucketOf(byte[] key) {
        return arcBucket[arcOf(key)];
    }

    /** The bucket arc {@code arc} belongs to. */
    public int bucketOfArc(int arc) {
        return arcBucket[arc];
    }

    /** The ring server of arc {@code arc} (its home, independent of migrations). */
    public int serverOfArc(int arc) {
        return arcServer[arc];
    }

    /** The current owner of {@code key}: the owner of its bucket. */
    public int ownerOf(byte[] key) {
        return owners[bucketOf(key)];
    }

    /** The current owner of {@code bucket}. */
    public int owner(int bucket) {
        return owners[bucket];
    }

    /** The home (ring server) of {@code bucket}. */
    public int home(int bucket) {
        return bucket / bucketsPerServer;
    }

    /** Fraction of the 32-bit hash space in {@code bucket}; all buckets sum to 1. */
    public double ringShare(int bucket) {
        return bucketShare[bucket];
    }

    /** A copy of the owner of every bucket. */
    public int[] owners() {
        return owners.clone();
    }

    /**
     * Changes a bucket's owner (Phase 3 start, BALANCE.md, "Phase 3": {@code owner[c] = dst} before the copy).
     *
     * @throws IllegalArgumentException if the bucket or backend index is out of range
     */
    public synchronized void setOwner(int bucket, int backend) {
        if (bucket < 0 || bucket >= bucketShare.length) {
            throw new IllegalArgumentException(
                    "virtual bucket " + bucket + " (expected: 0.." + (bucketShare.length - 1) + ")");
        }
        if (backend < 0 || backend >= servers) {
            throw new IllegalArgumentException("backend " + backend + " (expected: 0.." + (servers - 1) + ")");
        }
        int[] next = owners.clone();
        next[bucket] = backend;
        owners = next;
    }

    /** Buckets currently owned by {@code backend}. */
    public List<Integer> bucketsOwnedBy(int backend) {
        int[] snapshot = owners;
        List<Integer> out = new ArrayList<>();
        for (int k = 0; k < snapshot.length; k++) {
            if (snapshot[k] == backend) {
                out.add(k);
            }
        }
        return out;
    }

    /** nutcracker's {@code hash_fnv1a_64}: 32-bit arithmetic, sign-extended key bytes. */
    static int fnv1a64(byte[] key) {
        int hash = FNV_64_INIT_LOW32;
        for (byte b : key) {
            hash ^= b;
            hash *= FNV_64_PRIME_LOW32;
        }
        return hash;
    }

    /** Points as {@code (unsigned value << 16) | server}, sorted, as nutcracker's ketama builds them. */
    private static long[] ketamaPoints(List<RingServer> ring) {
        long totalWeight = 0;
        for (RingServer s : ring) {
            totalWeight += s.weight();
        }
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is missing from this JRE (every Java SE runtime must have it)", e);
        }
        List<Long> all = new ArrayList<>();
        for (int index = 0; index < ring.size(); index++) {
            RingServer s = ring.get(index);
            // Float arithmetic on purpose: nutcracker computes the point count in float, and rounding must match.
            float pct = (float) s.weight() / (float) totalWeight;
            int count =
                    (int) (Math.floor((float) (pct * POINTS_PER_SERVER / 4 * (float) ring.size() + 0.0000000001)) * 4);
            for (int i = 0; i < count / 4; i++) {
                byte[] d = md5.digest((s.ringName() + "-" + i).getBytes(StandardCharsets.ISO_8859_1));
                for (int x = 0; x < 4; x++) {
                    long value = ((d[3 + x * 4] & 0xFFL) << 24)
                            | ((d[2 + x * 4] & 0xFFL) << 16)
                            | ((d[1 + x * 4] & 0xFFL) << 8)
                            | (d[x * 4] & 0xFFL);
                    all.add((value << 16) | index);
                }
            }
        }
        long[] points = all.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(points);
        return points;
    }
}
