package io.locus.memcached.balance.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.cache.ByteKey;
import io.locus.memcached.testing.ProxyUnderTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The parsing of the meta replies the balancer and the availability copies rely on. */
class MetaValueTest {
    @Test
    void parse_readsValueFlagsAndTtl_orMissOrFailure() {
        ByteBuf va = Unpooled.copiedBuffer("VA 5 f42 t-1\r\nab\r\nc\r\n", StandardCharsets.ISO_8859_1);
        MetaValue v = MetaValue.parse(va);
        assertEquals("ab\r\nc", v.data().toString(StandardCharsets.ISO_8859_1));
        assertEquals(42, v.flags());
        assertEquals(-1, v.ttl());
        assertFalse(v.failed());
        v.release();
        va.release();
        MetaValue miss = MetaValue.parse(Unpooled.copiedBuffer("EN\r\n", StandardCharsets.ISO_8859_1));
        assertNull(miss.data());
        assertFalse(miss.failed());
        MetaValue error =
                MetaValue.parse(Unpooled.copiedBuffer("SERVER_ERROR out of memory\r\n", StandardCharsets.ISO_8859_1));
        assertNull(error.data());
        assertTrue(error.failed());
        MetaValue noTtl =
                MetaValue.parse(Unpooled.copiedBuffer("VA 0 f4294967295\r\n\r\n", StandardCharsets.ISO_8859_1));
        assertEquals(4294967295L, noTtl.flags());
        assertEquals(-1, noTtl.ttl());
        assertEquals(0, noTtl.data().readableBytes());
        MetaValue ttl = MetaValue.parse(Unpooled.copiedBuffer("VA 1 t30 f0 b\r\nx\r\n", StandardCharsets.ISO_8859_1));
        assertEquals(30, ttl.ttl());
        assertEquals("x", ttl.data().toString(StandardCharsets.ISO_8859_1));
        for (String bad : new String[] {"VA\r\n", "VA x f1\r\n", "VA 1 fz\r\nx\r\n", "EN k\r\n", "HD\r\n"}) {
            assertTrue(
                    MetaValue.parse(Unpooled.copiedBuffer(bad, StandardCharsets.ISO_8859_1))
                            .failed(),
                    bad);
        }
    }

    @Test
    void shadowKey_isTheReservedPrefixInBase64() {
        assertEquals(
                "X19kbHA6cjprZXk=", ShadowReplicator.shadowKey(ProxyUnderTest.byteKey("key"))); // base64("__dlp:r:key")
        byte[] binary = {(byte) 0xff, 0x00, ' ', (byte) 0x80};
        assertEquals(
                "__dlp:r:\u00ff\u0000 \u0080",
                new String(ShadowReplicator.shadowKeyBytes(new ByteKey(binary)), StandardCharsets.ISO_8859_1));
    }

    @Test
    void linesAndValueBlocks_carryTheKeysBytes() {
        byte[] binary = {(byte) 0xff, 0x00, ' ', (byte) 0x80};
        ByteBuf line = MetaValue.line("mg", binary, " b v f");
        assertEquals("mg /wAggA== b v f\r\n", line.toString(StandardCharsets.ISO_8859_1));
        line.release();
        ByteBuf va = Unpooled.copiedBuffer("VA 2 f7\r\nhi\r\n", StandardCharsets.ISO_8859_1);
        MetaValue v = MetaValue.parse(va);
        va.release();
        ByteBuf block = v.valueBlock(
                new ByteKey("k\u00e9y".getBytes(StandardCharsets.ISO_8859_1)),
                "12",
                "END".getBytes(StandardCharsets.US_ASCII));
        assertEquals("VALUE k\u00e9y 7 2 12\r\nhiEND", block.toString(StandardCharsets.ISO_8859_1));
        block.release();
    }
}
