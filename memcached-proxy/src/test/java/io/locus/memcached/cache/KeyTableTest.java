package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The partition's key index agrees with a {@code HashMap} through growth, removal and clearing. */
class KeyTableTest {
    private static ByteKey key(String s) {
        return new ByteKey(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Entry entry(ByteKey k) {
        return new Entry(k, new byte[] {1}, 0, 0, 1, 0, Long.MAX_VALUE, -1, 0, 0);
    }

    @Test
    void randomAddsAndRemoves_matchAHashMap_lookupsByEqualBytesNotIdentity() {
        KeyTable table = new KeyTable();
        Map<String, Entry> model = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 50_000; step++) {
            String name = "key:" + random.nextInt(3000);
            Entry present = table.get(key(name));
            assertSame(model.get(name), present, name);
            if (present == null) {
                Entry e = entry(key(name));
                table.add(e);
                model.put(name, e);
            } else if (random.nextInt(3) == 0) {
                table.remove(present);
                model.remove(name);
            }
            assertEquals(model.size(), table.size());
        }
        for (Map.Entry<String, Entry> e : model.entrySet()) {
            assertSame(e.getValue(), table.get(key(e.getKey())));
        }
        table.clear();
        assertEquals(0, table.size());
        assertNull(table.get(key("key:1")));
    }

    @Test
    void removingAnEntryNotInTheTable_isAnError() {
        KeyTable table = new KeyTable();
        table.add(entry(key("a")));
        Entry other = entry(key("b"));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> table.remove(other));
        assertEquals("entry b is not in its partition's table (expected: present)", e.getMessage());
        assertEquals(1, table.size());
    }
}
