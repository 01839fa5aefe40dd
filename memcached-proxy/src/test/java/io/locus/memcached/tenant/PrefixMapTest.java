package io.locus.memcached.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrefixMapTest {
    @Test
    void longestMappedPrefixWins_andUnmappedKeysGetNull() {
        PrefixMap<String> m = new PrefixMap<>();
        m.put("shop:", "shop");
        m.put("shop:search:", "search");
        m.put("s", "s");
        assertEquals("search", m.longestPrefixOf("shop:search:shoes"));
        assertEquals("shop", m.longestPrefixOf("shop:search"), "one char short of the longer prefix");
        assertEquals("shop", m.longestPrefixOf("shop:"));
        assertEquals("s", m.longestPrefixOf("shop"));
        assertNull(m.longestPrefixOf("user:1"));
        assertNull(m.longestPrefixOf(""));
        assertEquals(3, m.size());
    }

    @Test
    void emptyPrefix_matchesEveryKey() {
        PrefixMap<String> m = new PrefixMap<>();
        m.put("", "all");
        m.put("a", "a");
        assertEquals("all", m.longestPrefixOf(""));
        assertEquals("all", m.longestPrefixOf("b"));
        assertEquals("a", m.longestPrefixOf("ab"));
    }

    @Test
    void everyByteValue_asAChildOfOneNode() {
        PrefixMap<Integer> m = new PrefixMap<>();
        for (int c = 0; c < 256; c++) {
            m.put("k" + (char) c, c);
        }
        for (int c = 255; c >= 0; c--) {
            assertEquals(c, m.longestPrefixOf("k" + (char) c + "rest"));
        }
        assertNull(m.longestPrefixOf("j"));
    }

    @Test
    void samePrefixTwice_isRefused() {
        PrefixMap<String> m = new PrefixMap<>();
        m.put("x:", "a");
        assertThrows(IllegalArgumentException.class, () -> m.put("x:", "b"));
    }
}
