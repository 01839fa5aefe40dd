package io.locus.memcached.cache;

import java.util.Arrays;

/**
 * A partition's key index: a chained hash table whose chains run through the entries themselves ({@link
 * Entry#hashNext()}), so a lookup reads the bucket, the entry and its key bytes and nothing else (a {@code
 * HashMap<ByteKey, Entry>} also reads its node and the stored key object, two more cache misses per lookup on a cache
 * larger than the CPU's). Grows by doubling above a load of 3/4. Not thread-safe: the partition's lock guards it.
 */
final class KeyTable {
    private static final int MIN_BUCKETS = 16;

    private Entry[] buckets = new Entry[MIN_BUCKETS];
    private int shift = Integer.SIZE - Integer.numberOfTrailingZeros(MIN_BUCKETS);
    private int size;

    int size() {
        return size;
    }

    /** The entry of {@code key}, or null. */
    Entry get(ByteKey key) {
        int h = key.hashCode();
        byte[] k = key.bytes();
        for (Entry e = buckets[index(h)]; e != null; e = e.hashNext()) {
            if (e.hash() == h && Arrays.equals(e.keyBytes(), k)) {
                return e;
            }
        }
        return null;
    }

    /** Adds an entry whose key is not in the table. */
    void add(Entry e) {
        if (++size > buckets.length - (buckets.length >>> 2)) {
            resize();
        }
        int i = index(e.hash());
        e.hashNext(buckets[i]);
        buckets[i] = e;
    }

    /** Removes an entry that is in the table. */
    void remove(Entry e) {
        int i = index(e.hash());
        Entry prev = null;
        for (Entry x = buckets[i]; x != null; prev = x, x = x.hashNext()) {
            if (x == e) {
                if (prev == null) {
                    buckets[i] = e.hashNext();
                } else {
                    prev.hashNext(e.hashNext());
                }
                e.hashNext(null);
                size--;
                return;
            }
        }
        throw new IllegalStateException("entry " + e.key() + " is not in its partition's table (expected: present)");
    }

    void clear() {
        buckets = new Entry[MIN_BUCKETS];
        shift = Integer.SIZE - Integer.numberOfTrailingZeros(MIN_BUCKETS);
        size = 0;
    }

    /**
     * The bucket of a hash, from its high bits after a Fibonacci multiply: the partition was chosen by the hash's low
     * bits, so within one partition those are alike.
     */
    private int index(int hash) {
        return (hash * 0x9E3779B9) >>> shift;
    }

    private void resize() {
        Entry[] old = buckets;
        buckets = new Entry[old.length * 2];
        shift--;
        for (Entry head : old) {
            Entry e = head;
            while (e != null) {
                Entry next = e.hashNext();
                int i = index(e.hash());
                e.hashNext(buckets[i]);
                buckets[i] = e;
                e = next;
            }
        }
    }
}
