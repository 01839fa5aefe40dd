package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A command line's tokens are read as memcached reads them. */
class TokensTest {
    private static boolean isUint64(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return Tokens.isUint64(Unpooled.wrappedBuffer(b), 0, b.length);
    }

    private static boolean isInt32(String s) {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return Tokens.isInt32(Unpooled.wrappedBuffer(b), 0, b.length);
    }

    @Test
    void numbers_followMemcachedsParsing() {
        assertTrue(isUint64("18446744073709551615"));
        assertFalse(isUint64("18446744073709551616"));
        assertTrue(isUint64("+5"));
        assertFalse(isUint64("-1"));
        assertTrue(isInt32("-2147483648"));
        assertFalse(isInt32("2147483648"));
    }

    @Test
    void tokenize_collapsesSpacesKeepsTabs() {
        assertEquals(List.of("a", "b\tc", "d"), CommandLine.tokenize("  a   b\tc d  "));
    }
}
