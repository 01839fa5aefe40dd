package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.ResourceLeakDetector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BackendResponseDecoderTest {
    @BeforeAll
    static void paranoidLeakDetection() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    /** A reply format, the backend's bytes, and the keys of the items found. */
    record Case(ReplyFormat format, String wire, List<String> keys) {}

    static final List<Case> CASES = List.of(
            new Case(ReplyFormat.LINE, "STORED\r\n", List.of()),
            new Case(ReplyFormat.LINE, "CLIENT_ERROR bad data chunk\r\n", List.of()),
            new Case(ReplyFormat.VALUES, "END\r\n", List.of()),
            new Case(
                    ReplyFormat.VALUES, "VALUE a 0 3\r\nEND\r\nVALUE bb 5 2 77\r\n\r\n\r\nEND\r\n", List.of("a", "bb")),
            new Case(ReplyFormat.VALUES, "SERVER_ERROR out of memory\r\n", List.of()),
            new Case(ReplyFormat.META, "HD\r\n", List.of()),
            new Case(ReplyFormat.META, "VA 4 f0 t-1\r\nVA 1\r\n", List.of()),
            new Case(ReplyFormat.META, "EN\r\n", List.of()),
            new Case(ReplyFormat.UNTIL_MN, "MN\r\n", List.of()),
            new Case(ReplyFormat.UNTIL_MN, "VA 2 k\r\nMN\r\nMN\r\n", List.of()),
            new Case(ReplyFormat.UNTIL_MN, "NF\r\nMN\r\n", List.of()));

    @Test
    void everyReply_splitAtEveryByte_comesOutWholeAndByteExact() {
        for (Case c : CASES) {
            byte[] wire = c.wire().getBytes(StandardCharsets.ISO_8859_1);
            for (int split = 0; split <= wire.length; split++) {
                BackendResponseDecoder decoder = new BackendResponseDecoder(ProtocolLimits.DEFAULTS);
                EmbeddedChannel ch = new EmbeddedChannel(decoder);
                decoder.expect(c.format());
                ch.writeInbound(Unpooled.wrappedBuffer(wire, 0, split));
                List<BackendReply> got = new ArrayList<>();
                BackendReply r;
                while ((r = ch.readInbound()) != null) {
                    got.add(r);
                }
                assertTrue(got.isEmpty() || split == wire.length, c.wire() + " split at " + split);
                ch.writeInbound(Unpooled.wrappedBuffer(wire, split, wire.length - split));
                while ((r = ch.readInbound()) != null) {
                    got.add(r);
                }
                assertEquals(1, got.size(), c.wire() + " split at " + split);
                BackendReply reply = got.get(0);
                assertEquals(c.wire(), reply.bytes().toString(StandardCharsets.ISO_8859_1));
                assertEquals(
                        c.keys(),
                        reply.items().stream()
                                .map(i -> reply.itemKey(i).toString(StandardCharsets.ISO_8859_1))
                                .toList());
                assertEquals(
                        c.wire().startsWith("CLIENT_ERROR") || c.wire().startsWith("SERVER_ERROR"), reply.isError());
                reply.release();
                assertEquals(0, decoder.outstanding());
                assertFalse(ch.finish());
            }
        }
    }

    @Test
    void itemSlice_isTheValueLineAndItsData() {
        BackendResponseDecoder decoder = new BackendResponseDecoder(ProtocolLimits.DEFAULTS);
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        decoder.expect(ReplyFormat.VALUES);
        ch.writeInbound(
                Unpooled.copiedBuffer("VALUE a 0 1\r\nx\r\nVALUE b 0 2\r\nyz\r\nEND\r\n", StandardCharsets.US_ASCII));
        BackendReply r = ch.readInbound();
        assertEquals("VALUE b 0 2\r\nyz\r\n", r.itemSlice(r.items().get(1)).toString(StandardCharsets.US_ASCII));
        r.release();
        assertFalse(ch.finish());
    }

    @Test
    void unaskedBytes_areAProtocolError() {
        EmbeddedChannel ch = new EmbeddedChannel(new BackendResponseDecoder(ProtocolLimits.DEFAULTS));
        DecoderException e = assertThrows(
                DecoderException.class,
                () -> ch.writeInbound(Unpooled.copiedBuffer("STORED\r\n", StandardCharsets.US_ASCII)));
        assertEquals(
                "backend sent 8 bytes nobody asked for: \"STORED\\r\\n\"",
                e.getCause().getMessage());
        ch.finishAndReleaseAll();
    }

    @Test
    void oversizedValue_isAProtocolError() {
        BackendResponseDecoder decoder = new BackendResponseDecoder(new ProtocolLimits(250, 1024, 10));
        EmbeddedChannel ch = new EmbeddedChannel(decoder);
        decoder.expect(ReplyFormat.VALUES);
        DecoderException e = assertThrows(
                DecoderException.class,
                () -> ch.writeInbound(Unpooled.copiedBuffer("VALUE a 0 11\r\n", StandardCharsets.US_ASCII)));
        assertEquals(
                "bad data length in \"VALUE a 0 11\\r\\n\" (expected: 0..10)",
                e.getCause().getMessage());
        ch.finishAndReleaseAll();
    }
}
