package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.testing.RawClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keys and meta lines kept as the client's bytes: requests the proxy builds, hint tokens removed without strings. */
class RequestBytesTest {
    private static final String KEY = "bin:\u00e9\u00ff\u0080\u00a0";

    @BeforeAll
    static void paranoidLeakDetection() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private static String text(ByteBuf b) {
        try {
            return b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            b.release();
        }
    }

    private static MemcachedRequest decode(String wire) {
        EmbeddedChannel ch = new EmbeddedChannel(new MemcachedRequestDecoder(new ProtocolLimits(250, 1024, 4096)));
        ch.writeInbound(Unpooled.copiedBuffer(wire, StandardCharsets.ISO_8859_1));
        MemcachedRequest r = ch.readInbound();
        ch.finish();
        return r;
    }

    @Test
    void withKey_keepsTheKeysBytes_forwardedAsWritten() {
        MemcachedRequest mg = MemcachedRequest.withKey(
                UnpooledByteBufAllocator.DEFAULT, Command.MG, RawClient.bytes(KEY), List.of("v", "f", "t"));
        assertArrayEquals(RawClient.bytes(KEY), mg.keyBytes());
        assertEquals(4, mg.argCount());
        assertEquals(List.of("v", "f", "t"), mg.argsFrom(1));
        assertEquals(
                "mg " + KEY + " v f t\r\n", text(RequestWriter.forward(UnpooledByteBufAllocator.DEFAULT, mg, false)));
        assertTrue(mg.release());
    }

    @Test
    void forwardMeta_removesHintTokens_keyAndDatalenAsTheClientSentThem() {
        MemcachedRequest mg = decode("mg " + KEY + " v Pshop L20ms k\r\n");
        assertEquals(List.of("v", "Pshop", "L20ms", "k"), mg.argsFrom(1));
        mg.metaFlags().hide(1, 2);
        assertEquals(
                "mg " + KEY + " v k\r\n",
                text(RequestWriter.forwardMeta(UnpooledByteBufAllocator.DEFAULT, mg, mg.metaFlags(), false)));
        assertTrue(mg.release());

        MemcachedRequest ms = decode("ms " + KEY + " 2 T60 Pshop q\r\nzz\r\n");
        ms.metaFlags().hide(-1, 1);
        assertEquals(
                "ms " + KEY + " 2 T60 q\r\nzz\r\nmn\r\n",
                text(RequestWriter.forwardMeta(UnpooledByteBufAllocator.DEFAULT, ms, ms.metaFlags(), true)));
        assertTrue(ms.release());

        MemcachedRequest plain = decode("mg " + KEY + "  v k\r\n");
        assertEquals(
                "mg " + KEY + "  v k\r\n",
                text(RequestWriter.forwardMeta(UnpooledByteBufAllocator.DEFAULT, plain, plain.metaFlags(), false)),
                "no hint token: the client's line unchanged");
        assertEquals(List.of(), plain.argsFrom(3));
        assertTrue(plain.release());
    }
}
