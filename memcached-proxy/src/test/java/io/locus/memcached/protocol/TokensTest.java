package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A command line's tokens are read as memcached reads them. */
class TokensTest {
    @Test
    void numbers_followMemcachedsParsing() {
        assertTrue(Tokens.isUint64("18446744073709551615"));
        assertFalse(Tokens.isUint64("18446744073709551616"));
        assertTrue(Tokens.isUint64("+5"));
        assertFalse(Tokens.isUint64("-1"));
        assertTrue(Tokens.isInt32("-2147483648"));
        assertFalse(Tokens.isInt32("2147483648"));
    }

    @Test
    void tokenize_collapsesSpacesKeepsTabs() {
        assertEquals(List.of("a", "b\tc", "d"), Tokens.tokenize("  a   b\tc d  "));
    }
}
