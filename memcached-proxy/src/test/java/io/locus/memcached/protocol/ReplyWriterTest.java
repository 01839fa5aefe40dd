package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ReplyWriterTest {
    private static String text(ByteBuf b) {
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void values_hitsInRequestOrder_missesLeftOut_flagsUnsigned_thenEnd() {
        ByteBuf b = ReplyWriter.values(
                UnpooledByteBufAllocator.DEFAULT,
                new byte[][] {bytes("a"), bytes("missing"), bytes("b\u00e9\u00ff"), bytes("a")},
                new byte[][] {bytes("one"), null, bytes("t\r\nwo"), bytes("one")},
                new int[] {0, 0, -1, 7});
        assertEquals(
                "VALUE a 0 3\r\none\r\nVALUE b\u00e9\u00ff 4294967295 5\r\nt\r\nwo\r\nVALUE a 7 3\r\none\r\nEND\r\n",
                text(b));
    }

    @Test
    void values_allMisses_isEnd() {
        ByteBuf b = ReplyWriter.values(
                UnpooledByteBufAllocator.DEFAULT, new byte[][] {bytes("x")}, new byte[][] {null}, new int[] {0});
        assertEquals("END\r\n", text(b));
    }
}
