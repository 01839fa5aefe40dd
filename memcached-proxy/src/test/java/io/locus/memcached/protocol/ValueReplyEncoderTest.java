package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The assembled single-key reply is byte for byte the one {@link ReplyWriter} writes piece by piece. */
class ValueReplyEncoderTest {
    private static final UnpooledByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;

    private static byte[] bytes(ByteBuf b) {
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    private static byte[] latin1(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void value_isMemcachedsReply_flagsUnsigned_valueBytesVerbatim() {
        ValueReplyEncoder encoder = new ValueReplyEncoder();
        assertEquals(
                "VALUE b\u00e9\u00ff 4294967295 5\r\nt\r\nwo\r\nEND\r\n",
                new String(
                        bytes(encoder.value(ALLOC, latin1("b\u00e9\u00ff"), -1, latin1("t\r\nwo"))),
                        StandardCharsets.ISO_8859_1));
        assertEquals(
                "VALUE k 0 0\r\n\r\nEND\r\n",
                new String(bytes(encoder.value(ALLOC, latin1("k"), 0, new byte[0])), StandardCharsets.ISO_8859_1));
    }

    @Test
    void value_sameBytesAsReplyWriter_acrossSizes_reusingItsArray() {
        ValueReplyEncoder encoder = new ValueReplyEncoder();
        byte[] key = new byte[250];
        Arrays.fill(key, (byte) 'k');
        int[] sizes = {0, 1, 9, 10, 99, 100, 1000, 3000, ValueReplyEncoder.ASSEMBLE_LIMIT, 5000, 100, 70_000, 7};
        int[] flags = {0, 1, 9, 10, 123_456, Integer.MAX_VALUE, -1, 42};
        for (int i = 0; i < sizes.length; i++) {
            byte[] value = new byte[sizes[i]];
            for (int j = 0; j < value.length; j++) {
                value[j] = (byte) (j * 31 + i);
            }
            int f = flags[i % flags.length];
            byte[] k = Arrays.copyOf(key, 1 + (i * 37) % key.length);
            assertEquals(
                    Arrays.toString(bytes(ReplyWriter.value(ALLOC, k, f, value))),
                    Arrays.toString(bytes(encoder.value(ALLOC, k, f, value))),
                    "value of " + sizes[i] + " bytes, flags " + f + ", key of " + k.length + " bytes");
        }
    }
}
