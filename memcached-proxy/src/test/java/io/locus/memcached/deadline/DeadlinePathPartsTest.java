package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.cache.DeadlineCache;
import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.testing.RawClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure parts of the deadline path: mg flag handling (keys echoed as their bytes), fill parsing. */
class DeadlinePathPartsTest {
    private static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private static String text(ByteBuf b) {
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    /** The flags of {@code mg key <flags>}, read in its line (the request is kept for the test's length). */
    private static MetaGetFlags mg(String... flags) {
        MemcachedRequest req = MemcachedRequest.withKey(ALLOC, Command.MG, RawClient.bytes("key"), List.of(flags));
        return MetaGetFlags.parse(req.metaFlags());
    }

    @Test
    void metaGetFlags_onlyWhatTheCacheCanAnswer_repliesInRequestOrder() {
        MetaGetFlags f = mg("s", "v", "k", "Oab", "f", "q");
        assertEquals(
                "VA 3 s3 kkey Oab f4294967295\r\nabc\r\n",
                text(f.hit(ALLOC, RawClient.bytes("key"), -1, RawClient.bytes("abc"))));
        assertEquals("EN kkey Oab\r\n", text(f.miss(ALLOC, RawClient.bytes("key"))));
        assertTrue(f.quiet());
        assertEquals("HD\r\n", text(mg().hit(ALLOC, RawClient.bytes("k"), 0, new byte[9])));
        MetaGetFlags k = mg("k", "f");
        assertEquals(
                "HD k\u00e9\u00ff\u0080 f7\r\n",
                text(k.hit(ALLOC, RawClient.bytes("\u00e9\u00ff\u0080"), 7, new byte[2])));
        assertEquals("EN k\u00e9\u00ff\u0080\r\n", text(k.miss(ALLOC, RawClient.bytes("\u00e9\u00ff\u0080"))));
        String longest = "O" + "x".repeat(31);
        assertEquals("EN " + longest + "\r\n", text(mg(longest).miss(ALLOC, RawClient.bytes("key"))));
        for (String bad : List.of("c", "t", "h", "l", "T30", "N30", "E5", "R30", "b", "vv", "O" + "x".repeat(32))) {
            assertNull(mg("v", bad), bad);
        }
        assertNull(mg("v", "v"), "a repeated flag is memcached's error to give");
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
