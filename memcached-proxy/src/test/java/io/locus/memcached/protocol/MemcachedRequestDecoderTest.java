package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ResourceLeakDetector;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MemcachedRequestDecoderTest {
    /** Well-formed requests and how they should be described after decoding ({@link MemcachedRequest#toString()}). */
    static final String[][] VALID = {
        {"get k\r\n", "get k"},
        {"get a bb ccc a\r\n", "get a bb ccc a"},
        {"gets   k1  k2\r\n", "gets k1 k2"},
        {"gat 100 k1 k2\r\n", "gat 100 k1 k2"},
        {"gats -1 k\r\n", "gats -1 k"},
        {"set k 5 0 3\r\nabc\r\n", "set k 5 0 3 <3 bytes>"},
        {"set k 0 0 4 noreply\r\n\r\n\u0000\u00ff\r\n", "set k 0 0 4 noreply <4 bytes>"},
        {"add k 0 10 0\r\n\r\n", "add k 0 10 0 <0 bytes>"},
        {"replace k 0 0 1\na\r\n", "replace k 0 0 1 <1 bytes>"},
        {"append k 0 0 2\r\nxy\r\n", "append k 0 0 2 <2 bytes>"},
        {"prepend k 0 0 2\r\nxy\r\n", "prepend k 0 0 2 <2 bytes>"},
        {"cas k 0 0 2 12345\r\nxy\r\n", "cas k 0 0 2 12345 <2 bytes>"},
        {"delete k\r\n", "delete k"},
        {"delete k 0 noreply\r\n", "delete k 0 noreply"},
        {"incr k 5\r\n", "incr k 5"},
        {"decr k 18446744073709551615 noreply\r\n", "decr k 18446744073709551615 noreply"},
        {"touch k 10\r\n", "touch k 10"},
        {"version\r\n", "version "},
        {"verbosity 1\r\n", "verbosity 1"},
        {"stats\r\n", "stats "},
        {"stats items\r\n", "stats items"},
        {"flush_all\r\n", "flush_all "},
        {"flush_all 10 noreply\r\n", "flush_all 10 noreply"},
        {"quit\r\n", "quit "},
        {"mg k v f t c Pshop L20ms\r\n", "mg k v f t c Pshop L20ms"},
        {"ms k 3 T60 F5 q\r\nabc\r\n", "ms k 3 T60 F5 q <3 bytes>"},
        {"md k q\r\n", "md k q"},
        {"ma k D5 MI v\r\n", "ma k D5 MI v"},
        {"me k\r\n", "me k"},
        {"mn\r\n", "mn "},
        {"dlctx tenant=shop deadline=20ms\r\n", "dlctx tenant=shop deadline=20ms"},
    };

    EmbeddedChannel channel;

    @BeforeAll
    static void paranoidLeakDetection() {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @AfterEach
    void noLeftovers() {
        if (channel != null) {
            assertFalse(channel.finish(), "decoder emitted messages nobody read");
        }
    }

    private EmbeddedChannel newChannel() {
        channel = new EmbeddedChannel(new MemcachedRequestDecoder(new ProtocolLimits(250, 1024, 4096)));
        return channel;
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    /** Reads every decoded message, describes it, and releases it. */
    private List<String> drain() {
        List<String> out = new ArrayList<>();
        Object m;
        while ((m = channel.readInbound()) != null) {
            if (m instanceof MemcachedRequest r) {
                out.add(r.toString() + (r.quiet() ? " [quiet]" : ""));
                assertTrue(r.release());
            } else {
                RequestError e = (RequestError) m;
                out.add(e.replyLine()
                        + (e.suppressed() ? " [suppressed]" : "")
                        + (e.closeConnection() ? " [close]" : ""));
            }
        }
        return out;
    }

    private static String strip(String described) {
        return described.replace(" [quiet]", "");
    }

    @Test
    void everyValidRequest_splitAtEveryByte_decodesOnceAndIdentically() {
        for (String[] c : VALID) {
            byte[] wire = c[0].getBytes(StandardCharsets.ISO_8859_1);
            for (int split = 0; split <= wire.length; split++) {
                newChannel();
                channel.writeInbound(Unpooled.wrappedBuffer(wire, 0, split));
                List<String> first = drain();
                assertTrue(
                        first.isEmpty() || split == wire.length,
                        "complete message before its end: " + c[0] + " split at " + split + " gave " + first);
                channel.writeInbound(Unpooled.wrappedBuffer(wire, split, wire.length - split));
                first.addAll(drain());
                assertEquals(1, first.size(), "for " + c[0] + " split at " + split);
                assertEquals(c[1], strip(first.get(0)), "for " + c[0] + " split at " + split);
                channel.finish();
                channel = null;
            }
        }
    }

    @Test
    void everyValidRequest_oneByteAtATime_pipelinedInOneStream() {
        newChannel();
        StringBuilder all = new StringBuilder();
        for (String[] c : VALID) {
            all.append(c[0]);
        }
        byte[] wire = all.toString().getBytes(StandardCharsets.ISO_8859_1);
        List<String> got = new ArrayList<>();
        for (byte b : wire) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
            got.addAll(drain());
        }
        List<String> expected = new ArrayList<>();
        for (String[] c : VALID) {
            expected.add(c[1]);
        }
        assertEquals(
                expected, got.stream().map(MemcachedRequestDecoderTest::strip).toList());
    }

    @Test
    void quietFlags_areNoreplyForClassicAndQForMeta() {
        newChannel();
        channel.writeInbound(bytes("set k 0 0 1 noreply\r\na\r\nset k 0 0 1 foo\r\na\r\nmg k v q\r\nmg k qv\r\n"
                + "incr k 1 noreply\r\n"));
        assertEquals(
                List.of(
                        "set k 0 0 1 noreply <1 bytes> [quiet]",
                        "set k 0 0 1 foo <1 bytes>",
                        "mg k v q [quiet]",
                        "mg k qv [quiet]",
                        "incr k 1 noreply [quiet]"),
                drain());
    }

    @Test
    void dataBlock_keepsBinaryBytesExactly() {
        newChannel();
        byte[] value = new byte[256];
        for (int i = 0; i < value.length; i++) {
            value[i] = (byte) i;
        }
        ByteBuf in = Unpooled.buffer();
        in.writeCharSequence("set bin 0 0 256\r\n", StandardCharsets.US_ASCII);
        in.writeBytes(value);
        in.writeCharSequence("\r\n", StandardCharsets.US_ASCII);
        channel.writeInbound(in);
        MemcachedRequest r = channel.readInbound();
        byte[] got = new byte[r.data().readableBytes()];
        r.data().getBytes(r.data().readerIndex(), got);
        r.release();
        assertEquals(new String(value, StandardCharsets.ISO_8859_1), new String(got, StandardCharsets.ISO_8859_1));
    }

    /** The request keeps the client's bytes: forwarded as sent, keys read from them, tokens made strings on demand. */
    @Test
    void original_isTheClientsBytes_keysAreSlicesOfTheLine() {
        newChannel();
        String set = "set  k\u00e9y 5 0 3 noreply\r\nabc\r\n";
        String get = "gat 10 a b\u00ff\n";
        channel.writeInbound(bytes(set + get));
        MemcachedRequest s = channel.readInbound();
        MemcachedRequest g = channel.readInbound();
        try {
            ByteBuf original = s.original();
            assertEquals(set, original.toString(StandardCharsets.ISO_8859_1));
            original.release();
            assertEquals(1, s.keyCount());
            assertArrayEquals("k\u00e9y".getBytes(StandardCharsets.ISO_8859_1), s.keyBytes());
            assertEquals(List.of("k\u00e9y", "5", "0", "3", "noreply"), s.args());
            assertEquals("abc", s.data().toString(StandardCharsets.ISO_8859_1));
            assertTrue(s.quiet());

            original = g.original();
            assertEquals(get, original.toString(StandardCharsets.ISO_8859_1));
            original.release();
            assertEquals(2, g.keyCount());
            assertEquals("b\u00ff", g.keySlice(1).toString(StandardCharsets.ISO_8859_1));
            assertArrayEquals(new byte[] {'b', (byte) 0xff}, g.keyBytes(1));
            assertEquals(List.of("a", "b\u00ff"), g.keys());
        } finally {
            assertTrue(s.release());
            assertTrue(g.release());
        }
    }

    /** memcached ends a line at a NUL byte; such a line is not forwarded as sent, the parsed tokens are. */
    @Test
    void original_isNull_whenTheLineHoldsANul() {
        newChannel();
        channel.writeInbound(bytes("get k\u0000junk\r\n"));
        MemcachedRequest r = channel.readInbound();
        try {
            assertNull(r.original());
            assertEquals(List.of("k"), r.keys());
        } finally {
            assertTrue(r.release());
        }
    }

    /** Malformed input, the exact reply memcached 1.6.18 gives, and every reply of the stream including the next line. */
    static final String[][] MALFORMED = {
        {"foo\r\n", "ERROR"},
        {"\r\n", "ERROR"},
        {"GET k\r\n", "ERROR"},
        {"get\r\n", "ERROR"},
        {"get " + "a".repeat(251) + "\r\n", "CLIENT_ERROR bad command line format"},
        {"mg " + "a".repeat(251) + " v\r\n", "CLIENT_ERROR bad command line format"},
        // memcached leaves the data block unread after a bad line: it becomes the next command (ERROR).
        {"set " + "a".repeat(251) + " 0 0 1\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
        {"set k 0 0 x\r\n", "CLIENT_ERROR bad command line format"},
        {"set k 0 0 -1\r\n", "CLIENT_ERROR bad command line format"},
        {"set k abc 0 1\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
        {"set k 0 0 1 extra junk\r\na\r\n", "ERROR|ERROR"},
        {"set k\t0 0 1\r\na\r\n", "ERROR|ERROR"},
        {"cas k 0 0 1\r\na\r\n", "ERROR|ERROR"},
        {"cas k 0 0 1 abc\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
        {"set k 0 0 1\r\nab\r\n", "CLIENT_ERROR bad data chunk|ERROR"},
        {"set k 0 0 1 noreply\r\nabc\r\n", "CLIENT_ERROR bad data chunk [suppressed]|ERROR"},
        {"ms k 2 T0\r\nabc\r\n", "CLIENT_ERROR bad data chunk|ERROR"},
        {"set k 0 0 5000\r\n" + "x".repeat(5000) + "\r\n", "SERVER_ERROR object too large for cache"},
        {"ms k 5000 T0 q\r\n" + "x".repeat(5000) + "\r\n", "SERVER_ERROR object too large for cache"},
        {"ms k\r\n", "CLIENT_ERROR bad command line format"},
        {"ms k S1\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
        {"ms\r\n", "ERROR"},
        {"md\r\n", "ERROR"},
        {"incr k\r\n", "ERROR"},
        {"incr k 1 2 3\r\n", "ERROR"},
        {"touch k\r\n", "ERROR"},
        {"verbosity\r\n", "ERROR"},
        {"delete k 0 noreply x\r\n", "ERROR"},
        {"gat\r\n", "ERROR"},
        {"gat x k\r\n", "CLIENT_ERROR invalid exptime argument"},
        {"get " + "k ".repeat(600) + "\r\n", "CLIENT_ERROR line too long"},
        {"x".repeat(3000) + "\r\n", "CLIENT_ERROR line too long"},
        // memcached reads a line as a C string: after a NUL byte, "set k" has too few tokens and the data is a command.
        {"set k\u0000 0 0 1\r\na\r\n", "ERROR|ERROR"},
        {"set k 18446744073709551616 0 1\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
        {"set k 0 2147483648 1\r\na\r\n", "CLIENT_ERROR bad command line format|ERROR"},
    };

    @Test
    void malformedThenValid_repliesLikeMemcachedAndTheNextLineStillWorks() {
        for (String[] c : MALFORMED) {
            for (int split : new int[] {0, 1, c[0].length() / 2, c[0].length() - 1}) {
                newChannel();
                String wire = c[0] + "get next\r\n";
                channel.writeInbound(bytes(wire.substring(0, split)));
                List<String> got = drain();
                channel.writeInbound(bytes(wire.substring(split)));
                got.addAll(drain());
                List<String> expected = new ArrayList<>(List.of(c[1].split("\\|")));
                expected.add("get next");
                assertEquals(
                        expected, got, "for " + c[0].substring(0, Math.min(40, c[0].length())) + " split at " + split);
                channel.finish();
                channel = null;
            }
        }
    }

    @Test
    void nonRetrievalLinesOver2048Bytes_areRejected_longGetsAreNot() {
        channel = new EmbeddedChannel(new MemcachedRequestDecoder(ProtocolLimits.DEFAULTS));
        channel.writeInbound(bytes("mg k " + "v ".repeat(1100) + "\r\nget " + "k ".repeat(1100) + "\r\n"));
        List<String> got = drain();
        assertEquals("CLIENT_ERROR line too long", got.get(0));
        assertTrue(got.get(1).startsWith("get k k k"), got.get(1));
    }

    @Test
    void key250Bytes_isAccepted_251_isRejected() {
        newChannel();
        channel.writeInbound(bytes("get " + "k".repeat(250) + "\r\nget " + "k".repeat(251) + "\r\n"));
        List<String> got = drain();
        assertEquals(2, got.size());
        assertTrue(got.get(0).startsWith("get kkk"));
        assertEquals("CLIENT_ERROR bad command line format", got.get(1));
    }

    @Test
    void valueAtTheLimit_isAccepted_oneMore_isSkippedWholly() {
        newChannel();
        channel.writeInbound(bytes(
                "set a 0 0 4096\r\n" + "y".repeat(4096) + "\r\nset b 0 0 4097\r\n" + "z".repeat(4097) + "\r\nmn\r\n"));
        assertEquals(List.of("set a 0 0 4096 <4096 bytes>", "SERVER_ERROR object too large for cache", "mn "), drain());
    }

    @Test
    void binaryProtocolMagic_closesTheStream() {
        newChannel();
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, 0, 0, 0, 'g', 'e', 't', '\r', '\n'}));
        channel.writeInbound(bytes("get k\r\n"));
        assertEquals(List.of("CLIENT_ERROR binary protocol is not supported [close]"), drain());
    }

    @Test
    void keys_ofGatSkipTheExptime() {
        newChannel();
        channel.writeInbound(bytes("gat 5 a b a\r\n"));
        MemcachedRequest r = channel.readInbound();
        assertEquals(List.of("a", "b", "a"), r.keys());
        assertNull(r.data());
        r.release();
    }

    @Test
    void partialDataBlock_isReleasedWhenTheChannelCloses() {
        newChannel();
        channel.writeInbound(bytes("set k 0 0 100\r\nonly-part"));
        assertNull(channel.readInbound());
        assertFalse(channel.finish());
        channel = null;
    }

    @Test
    void decodedErrors_areErrors() {
        newChannel();
        channel.writeInbound(bytes("nope\r\n"));
        RequestError e = assertInstanceOf(RequestError.class, channel.readInbound());
        assertEquals("unknown command \"nope\"", e.detail());
    }
}
