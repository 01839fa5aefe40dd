package io.locus.memcached.cache;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random operation sequences against a reference model written straight from MicroFuge §3.1.2-§3.1.4: a hash map of
 * items; the victim is found by brute force over all items (the least recently used item of each
 * (tenant, class) group competes with effective age, expired = infinite, ties: larger class, larger item,
 * older access). Invariants checked after every operation: same hit/miss and value, same used bytes and
 * item count, same bytes per tenant, used bytes within capacity.
 */
class DeadlineCacheModelTest {
    private static final long SEED = 0x5EEDL;
    private static final int OPS = 10_000;
    private static final long CAPACITY = 6_000;
    private static final String[] TENANTS = {"A", "B", "C"};
    private static final Map<String, Integer> WEIGHTS = Map.of("A", 1, "B", 2, "C", 1);

    enum Variant {
        PLAIN(DeadlineCacheConfig.defaults(CAPACITY)),
        FAIRNESS(DeadlineCacheConfig.defaults(CAPACITY).withFairness(true, false, WEIGHTS)),
        HARD_QUOTA(DeadlineCacheConfig.defaults(CAPACITY).withFairness(true, true, WEIGHTS)),
        MIN_POLICY(DeadlineCacheConfig.defaults(CAPACITY).withClassPolicy(ClassPolicy.MIN)),
        ONE_QUEUE(DeadlineCacheConfig.defaults(CAPACITY).withQueues(1));

        final DeadlineCacheConfig config;

        Variant(DeadlineCacheConfig config) {
            this.config = config.withPartitions(1).withMaxItemSizeBytes(1_000);
        }
    }

    @ParameterizedTest
    @EnumSource(Variant.class)
    void randomOperations_matchReferenceModel(Variant variant) {
        long seed = SEED + variant.ordinal();
        System.out.println("DeadlineCacheModelTest " + variant + " seed=" + seed);
        Random rnd = new Random(seed);
        ManualClock clock = new ManualClock();
        DeadlineCache cache = new DeadlineCache(variant.config, clock);
        Model model = new Model(variant.config);
        int hits = 0;
        for (int op = 0; op < OPS; op++) {
            clock.nowNanos += 1 + rnd.nextInt(2_000_000);
            String k = "k" + rnd.nextInt(60);
            byte[] key = k.getBytes(US_ASCII);
            String tenant = TENANTS[rnd.nextInt(TENANTS.length)];
            long deadline = rnd.nextInt(5) == 0 ? DeadlineCache.NO_DEADLINE : (long) rnd.nextInt(3_000) * 1_000_000;
            String where = variant + " seed=" + seed + " op=" + op + " key=" + k + " tenant=" + tenant;
            int kind = rnd.nextInt(10);
            if (kind < 4) {
                CachedItem got = cache.get(key, deadline, tenant);
                Model.Item expected = model.get(k, deadline, tenant, clock.nowNanos);
                if (expected == null) {
                    assertNull(got, where + ": model misses");
                } else {
                    hits++;
                    assertNotNull(got, where + ": model hits");
                    assertSame(expected.value, got.value(), where);
                    assertEquals(expected.flags, got.clientFlags(), where);
                    assertEquals(expected.q, got.deadlineClass(), where);
                }
            } else if (kind < 8) {
                boolean overwrite = kind < 7;
                byte[] value = new byte[rnd.nextInt(rnd.nextInt(20) == 0 ? 1_200 : 400)];
                int flags = rnd.nextInt();
                long ttl = switch (rnd.nextInt(6)) {
                    case 0 -> 1 + rnd.nextInt(20_000_000);
                    case 1 -> -rnd.nextInt(2);
                    default -> DeadlineCache.NEVER_EXPIRES;
                };
                boolean stored = overwrite
                        ? cache.set(key, value, flags, ttl, op, deadline, tenant)
                        : cache.add(key, value, flags, ttl, op, deadline, tenant);
                boolean expected = model.store(k, value, flags, ttl, deadline, tenant, overwrite, clock.nowNanos);
                assertEquals(expected, stored, where + ": stored");
            } else if (kind == 8) {
                assertEquals(model.invalidate(k), cache.invalidate(key), where + ": invalidate");
            } else {
                long ttl = rnd.nextBoolean() ? 1 + rnd.nextInt(20_000_000) : DeadlineCache.NEVER_EXPIRES;
                assertEquals(model.touch(k, ttl, clock.nowNanos), cache.touch(key, ttl), where + ": touch");
            }
            assertEquals(model.used, cache.usedBytes(), where + ": used bytes");
            assertEquals(model.items.size(), cache.itemCount(), where + ": items");
            assertTrue(cache.usedBytes() <= cache.capacityBytes(), where + ": capacity");
            for (TenantStats s : cache.tenantStats().values()) {
                assertEquals(model.bytesOf(s.tenant()), s.bytes(), where + ": bytes of " + s.tenant());
            }
        }
        assertTrue(hits > OPS / 10, variant + ": the sequence should produce hits, got " + hits);
        assertTrue(model.evictions > OPS / 20, variant + ": the sequence should evict, got " + model.evictions);
        assertFalse(model.items.isEmpty());
    }

    /** The reference: a map and brute force. */
    static final class Model {
        static final class Item {
            String key;
            byte[] value;
            int flags;
            long size;
            long expiresAt;
            long deadline;
            int q;
            String tenant;
            long lastAccess;
        }

        final Map<String, Item> items = new HashMap<>();
        final Set<String> activeTenants = new HashSet<>();
        final DeadlineCacheConfig config;
        final long baseNanos;
        long used;
        long evictions;

        Model(DeadlineCacheConfig config) {
            this.config = config;
            this.baseNanos = config.base().toNanos();
        }

        int classOf(long deadline) {
            if (deadline == DeadlineCache.NO_DEADLINE) {
                return config.queues() - 1;
            }
            return Math.min(config.queues() - 1, 64 - Long.numberOfLeadingZeros(deadline / baseNanos));
        }

        long bytesOf(String tenant) {
            return items.values().stream()
                    .filter(i -> i.tenant.equals(tenant))
                    .mapToLong(i -> i.size)
                    .sum();
        }

        long quotaOf(String tenant) {
            int sum = activeTenants.stream()
                    .mapToInt(t -> WEIGHTS.getOrDefault(t, 1))
                    .sum();
            return (long) ((double) CAPACITY * WEIGHTS.getOrDefault(tenant, 1) / sum);
        }

        Item get(String k, long deadline, String tenant, long now) {
            activeTenants.add(tenant);
            Item i = items.get(k);
            if (i == null) {
                return null;
            }
            if (now >= i.expiresAt) {
                remove(i);
                return null;
            }
            if (deadline != DeadlineCache.NO_DEADLINE) {
                boolean keep = config.classPolicy() == ClassPolicy.MIN
                        && i.deadline != DeadlineCache.NO_DEADLINE
                        && i.deadline <= deadline;
                i.deadline = keep ? i.deadline : deadline;
                i.q = classOf(i.deadline);
            }
            i.lastAccess = now;
            return i;
        }

        boolean store(
                String k,
                byte[] value,
                int flags,
                long ttl,
                long deadline,
                String tenant,
                boolean overwrite,
                long now) {
            activeTenants.add(tenant);
            Item old = items.get(k);
            if (old != null) {
                if (!overwrite && now < old.expiresAt) {
                    return false;
                }
                remove(old);
            }
            long size = k.length() + value.length + 96L;
            if (ttl <= 0 || size > config.maxItemSizeBytes() || size > CAPACITY) {
                return false;
            }
            while (used + size > CAPACITY) {
                remove(victim(now));
                evictions++;
            }
            Item i = new Item();
            i.key = k;
            i.value = value;
            i.flags = flags;
            i.size = size;
            i.expiresAt = ttl == DeadlineCache.NEVER_EXPIRES ? Long.MAX_VALUE : now + ttl;
            i.deadline = deadline;
            i.q = classOf(deadline);
            i.tenant = tenant;
            i.lastAccess = now;
            items.put(k, i);
            used += size;
            return true;
        }

        boolean invalidate(String k) {
            Item i = items.get(k);
            if (i != null) {
                remove(i);
            }
            return i != null;
        }

        boolean touch(String k, long ttl, long now) {
            Item i = items.get(k);
            if (i == null) {
                return false;
            }
            if (now >= i.expiresAt) {
                remove(i);
                return false;
            }
            i.expiresAt = ttl == DeadlineCache.NEVER_EXPIRES ? Long.MAX_VALUE : now + ttl;
            return true;
        }

        void remove(Item i) {
            items.remove(i.key);
            used -= i.size;
        }

        Item victim(long now) {
            boolean restrict = config.hardOverQuota() && activeTenants.stream().anyMatch(t -> bytesOf(t) > quotaOf(t));
            // The least recently used item of each (tenant, class) group.
            Map<String, Item> heads = new HashMap<>();
            for (Item i : items.values()) {
                heads.merge(i.tenant + "/" + i.q, i, (a, b) -> a.lastAccess <= b.lastAccess ? a : b);
            }
            List<Item> candidates = new ArrayList<>(heads.values());
            if (restrict) {
                candidates.removeIf(i -> bytesOf(i.tenant) <= quotaOf(i.tenant));
            }
            Item best = null;
            double bestScore = -1;
            for (Item i : candidates) {
                double mu = 1;
                if (config.fairnessEnabled()) {
                    mu = Math.max(1.0 / 64, Math.min(1.0, (double) bytesOf(i.tenant) / quotaOf(i.tenant)));
                }
                double score = now >= i.expiresAt
                        ? Double.POSITIVE_INFINITY
                        : (double) (now - i.lastAccess) * Math.pow(2, i.q) * mu;
                boolean better = best == null
                        || score > bestScore
                        || (score == bestScore
                                && (i.q != best.q
                                        ? i.q > best.q
                                        : i.size != best.size ? i.size > best.size : i.lastAccess < best.lastAccess));
                if (better) {
                    best = i;
                    bestScore = score;
                }
            }
            return best;
        }
    }
}
