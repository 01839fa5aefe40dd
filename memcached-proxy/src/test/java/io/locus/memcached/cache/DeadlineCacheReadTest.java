package io.locus.memcached.cache;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link DeadlineCache#read}: a hit handed to a reader is the same lookup as {@link DeadlineCache#get}. */
class DeadlineCacheReadTest {
    private static final long MS = 1_000_000;

    private final ManualClock clock = new ManualClock();

    private static byte[] key(String k) {
        return k.getBytes(US_ASCII);
    }

    @Test
    void read_hit_givesReaderTheValueAndFlags_missAndExpiryGiveNull() {
        DeadlineCache c = new DeadlineCache(DeadlineCacheConfig.defaults(1 << 20), clock);
        c.set(key("a"), new byte[] {7, 8}, 42, 10 * MS, 0, 5 * MS, "t");
        List<String> seen = new ArrayList<>();
        HitReader<String> reader = (value, flags) -> {
            seen.add(value.length + " bytes, flags " + flags);
            return "reply";
        };

        assertEquals("reply", c.read(key("a"), DeadlineCache.NO_DEADLINE, "t", reader));
        assertEquals(List.of("2 bytes, flags 42"), seen);
        assertNull(c.read(key("b"), DeadlineCache.NO_DEADLINE, "t", reader), "absent");
        clock.nowNanos = 10 * MS;
        assertNull(c.read(key("a"), DeadlineCache.NO_DEADLINE, "t", reader), "expired at its TTL");
        assertEquals(1, seen.size(), "the reader sees hits only");

        TenantStats s = c.tenantStats().get("t");
        assertEquals(1, s.hits());
        assertEquals(2, s.misses());
        assertEquals(1, s.expirations());
        assertEquals(0, s.bytes(), "an expired item found on access is removed");
    }

    /** A read moves the item to its queue's tail and updates its class, as get does: the class shows in a later get. */
    @Test
    void read_hit_updatesDeadlineClassLikeGet() {
        DeadlineCache viaRead = new DeadlineCache(DeadlineCacheConfig.defaults(1 << 20), clock);
        DeadlineCache viaGet = new DeadlineCache(DeadlineCacheConfig.defaults(1 << 20), clock);
        for (DeadlineCache c : List.of(viaRead, viaGet)) {
            c.set(key("k"), new byte[] {1}, 0, DeadlineCache.NEVER_EXPIRES, 0, 600 * MS, "t");
        }
        viaRead.read(key("k"), 1 * MS, "t", (v, f) -> v);
        viaGet.get(key("k"), 1 * MS, "t");

        CachedItem a = viaRead.get(key("k"), DeadlineCache.NO_DEADLINE, "t");
        CachedItem b = viaGet.get(key("k"), DeadlineCache.NO_DEADLINE, "t");
        assertEquals(b.deadlineClass(), a.deadlineClass());
        assertEquals(b.deadlineNanos(), a.deadlineNanos());
        assertArrayEquals(b.value(), a.value());
    }
}
