package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
                List.of("a", "missing", "b\u00e9", "a"),
                new byte[][] {bytes("one"), null, bytes("t\r\nwo"), bytes("one")},
                new int[] {0, 0, -1, 7});
        assertEquals(
                "VALUE a 0 3\r\none\r\nVALUE b\u00e9 4294967295 5\r\nt\r\nwo\r\nVALUE a 7 3\r\none\r\nEND\r\n",
                text(b));
    }

    @Test
    void values_allMisses_isEnd() {
        ByteBuf b =
                ReplyWriter.values(UnpooledByteBufAllocator.DEFAULT, List.of("x"), new byte[][] {null}, new int[] {0});
        assertEquals("END\r\n", text(b));
    }

    @Test
    void meta_withAndWithoutValue() {
        assertEquals(
                "VA 2 f1 kx\r\nhi\r\n",
                text(ReplyWriter.meta(UnpooledByteBufAllocator.DEFAULT, "VA 2 f1 kx", bytes("hi"))));
        assertEquals("HD f1\r\n", text(ReplyWriter.meta(UnpooledByteBufAllocator.DEFAULT, "HD f1", null)));
    }
}
