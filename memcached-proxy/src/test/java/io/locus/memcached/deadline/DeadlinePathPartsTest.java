package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.cache.DeadlineCache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure parts of the deadline path: mg flag handling, fill parsing. */
class DeadlinePathPartsTest {
    @Test
    void metaGetFlags_onlyWhatTheCacheCanAnswer_repliesInRequestOrder() {
        MetaGetFlags f = MetaGetFlags.parse(List.of("s", "v", "k", "Oab", "f", "q"));
        assertEquals("VA 3 s3 kkey Oab f4294967295", f.hitLine("key", -1, 3));
        assertEquals("EN kkey Oab", f.missLine("key"));
        assertTrue(f.quiet());
        assertEquals("HD", MetaGetFlags.parse(List.of()).hitLine("k", 0, 9));
        for (String bad : List.of("c", "t", "h", "l", "T30", "N30", "E5", "R30", "b", "vv", "O" + "x".repeat(33))) {
            assertNull(MetaGetFlags.parse(List.of("v", bad)), bad);
        }
        assertNull(MetaGetFlags.parse(List.of("v", "v")), "a repeated flag is memcached's error to give");
    }

    @Test
    void fillReply_parsed() {
        ByteBuf b = Unpooled.copiedBuffer("VA 5 f7 t-1\r\nhello\r\n", StandardCharsets.ISO_8859_1);
        FillResult r = FillResult.parse(b);
        assertEquals("hello", new String(r.value(), StandardCharsets.ISO_8859_1));
        assertEquals(7, r.clientFlags());
        assertEquals(DeadlineCache.NEVER_EXPIRES, r.ttlNanos());
        assertEquals(
                30_000_000_000L,
                FillResult.parse(Unpooled.copiedBuffer("VA 0 f0 t30\r\n\r\n", StandardCharsets.ISO_8859_1))
                        .ttlNanos());
        assertTrue(FillResult.parse(Unpooled.copiedBuffer("EN\r\n", StandardCharsets.ISO_8859_1))
                .miss());
        assertEquals(
                "SERVER_ERROR out of memory",
                FillResult.parse(Unpooled.copiedBuffer("SERVER_ERROR out of memory\r\n", StandardCharsets.ISO_8859_1))
                        .failure());
    }
}
