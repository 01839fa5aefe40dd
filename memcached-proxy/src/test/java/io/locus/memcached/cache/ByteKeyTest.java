package io.locus.memcached.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A key is its bytes: equal bytes are one key, a prefix is tested on bytes, the text form is only for printing. */
class ByteKeyTest {
    private static ByteKey key(String s) {
        return new ByteKey(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void equalBytes_equalKeysAndHashes_everyByteCounts() {
        assertEquals(key("k\u00e9\u00ff\u0080"), key("k\u00e9\u00ff\u0080"));
        assertEquals(
                key("k\u00e9\u00ff\u0080").hashCode(),
                key("k\u00e9\u00ff\u0080").hashCode());
        assertNotEquals(key("k\u00e9\u00ff\u0080"), key("k\u00e9\u00ff\u0081"));
        assertNotEquals(key("k\u00e9"), key("k\u00e9\u0000"));
    }

    @Test
    void startsWith_onBytes_andToStringPrintsOneCharPerByte() {
        byte[] prefix = "__dlp:".getBytes(StandardCharsets.US_ASCII);
        assertTrue(key("__dlp:r:\u00ff").startsWith(prefix));
        assertTrue(key("__dlp:").startsWith(prefix));
        assertFalse(key("__dlp").startsWith(prefix));
        assertFalse(key("x__dlp:").startsWith(prefix));
        assertEquals("a\u00ff\u0080 b", key("a\u00ff\u0080 b").toString());
    }
}
