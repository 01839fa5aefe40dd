package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Round trips through the codecs over generated traffic: requests written by {@link RequestWriter} come out of
 * {@link MemcachedRequestDecoder} as the same commands, tokens, data blocks and quiet flags, and backend replies come
 * out of {@link BackendResponseDecoder} whole and byte for byte, one per request; both for any keys and values within
 * memcached's limits and wherever the byte stream is cut into reads.
 */
class ProtocolRoundTripProperties {
    private static final ProtocolLimits LIMITS = ProtocolLimits.DEFAULTS;

    /** A request as generated: command, tokens after the command word, data block or null, quiet flag. */
    record Request(Command command, List<String> args, byte[] data, boolean quiet) {
        @Override
        public String toString() {
            return command.word() + " " + args + (data == null ? "" : " <" + data.length + " bytes>");
        }
    }

    /** A reply as the backend writes it: its format, its bytes, its VALUE items (key, bytes), whether an error. */
    record Reply(ReplyFormat format, String wire, List<String[]> items, boolean error) {}

    /** Keys of 1..250 bytes, no control character and no space (memcached's rule), Latin-1 as the decoder reads. */
    @Provide
    Arbitrary<String> key() {
        return Arbitraries.strings()
                .withCharRange('!', '~')
                .withCharRange('\u0080', '\u00ff')
                .ofMinLength(1)
                .ofMaxLength(LIMITS.maxKeyBytes());
    }

    /** Values: any bytes, including "\r\n", "END" and "VALUE" inside. */
    @Provide
    Arbitrary<byte[]> value() {
        Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(3000);
        Arbitrary<byte[]> tricky = Arbitraries.of("\r\n", "END\r\n", "\r\nEND\r\n", "VALUE k 0 1\r\n", "MN\r\n", "")
                .list()
                .ofMaxSize(4)
                .map(parts -> String.join("", parts).getBytes(StandardCharsets.ISO_8859_1));
        return Arbitraries.oneOf(any, tricky);
    }

    private static Arbitrary<String> uint64() {
        return Arbitraries.bigIntegers()
                .between(
                        java.math.BigInteger.ZERO,
                        java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE))
                .map(java.math.BigInteger::toString);
    }

    private static Arbitrary<String> int32() {
        return Arbitraries.integers().map(String::valueOf);
    }

    private static Arbitrary<Boolean> noreply() {
        return Arbitraries.of(true, false);
    }

    private static List<String> withNoreply(List<String> args, boolean noreply) {
        List<String> out = new ArrayList<>(args);
        if (noreply) {
            out.add("noreply");
        }
        return out;
    }

    @Provide
    Arbitrary<Request> request() {
        Arbitrary<Request> retrieval = Combinators.combine(
                        Arbitraries.of(Command.GET, Command.GETS),
                        key().list().ofMinSize(1).ofMaxSize(8))
                .as((c, keys) -> new Request(c, keys, null, false));
        Arbitrary<Request> gat = Combinators.combine(
                        Arbitraries.of(Command.GAT, Command.GATS),
                        int32(),
                        key().list().ofMinSize(1).ofMaxSize(4))
                .as((c, exptime, keys) -> {
                    List<String> args = new ArrayList<>(List.of(exptime));
                    args.addAll(keys);
                    return new Request(c, args, null, false);
                });
        Arbitrary<Request> storage = Combinators.combine(
                        Arbitraries.of(Command.SET, Command.ADD, Command.REPLACE, Command.APPEND, Command.PREPEND),
                        key(),
                        uint64(),
                        int32(),
                        value(),
                        noreply())
                .as((c, k, flags, exptime, data, q) -> new Request(
                        c, withNoreply(List.of(k, flags, exptime, Integer.toString(data.length)), q), data, q));
        Arbitrary<Request> cas = Combinators.combine(key(), uint64(), int32(), value(), uint64(), noreply())
                .as((k, flags, exptime, data, unique, q) -> new Request(
                        Command.CAS,
                        withNoreply(List.of(k, flags, exptime, Integer.toString(data.length), unique), q),
                        data,
                        q));
        Arbitrary<Request> keyed = Combinators.combine(
                        Arbitraries.of(Command.INCR, Command.DECR, Command.TOUCH, Command.DELETE),
                        key(),
                        uint64(),
                        noreply())
                .as((c, k, n, q) ->
                        new Request(c, withNoreply(c == Command.DELETE ? List.of(k) : List.of(k, n), q), null, q));
        Arbitrary<List<String>> flags = Arbitraries.of(
                        "v", "f", "t", "c", "k", "s", "q", "T30", "Oab", "N30", "F5", "I")
                .list()
                .ofMaxSize(5);
        Arbitrary<Request> meta = Combinators.combine(Arbitraries.of(Command.MG, Command.MD), key(), flags)
                .as((c, k, f) -> {
                    List<String> args = new ArrayList<>(List.of(k));
                    args.addAll(f);
                    return new Request(c, args, null, f.contains("q"));
                });
        Arbitrary<Request> metaSet = Combinators.combine(key(), value(), flags).as((k, data, f) -> {
            List<String> args = new ArrayList<>(List.of(k, Integer.toString(data.length)));
            args.addAll(f);
            return new Request(Command.MS, args, data, f.contains("q"));
        });
        return Arbitraries.oneOf(retrieval, gat, storage, cas, keyed, meta, metaSet);
    }

    /** Feeds {@code wire} to the channel in reads of the given sizes, cycling through them. */
    private static void feed(EmbeddedChannel channel, byte[] wire, List<Integer> readSizes) {
        int pos = 0;
        for (int i = 0; pos < wire.length; i++) {
            int n = Math.min(readSizes.get(i % readSizes.size()), wire.length - pos);
            channel.writeInbound(Unpooled.wrappedBuffer(wire, pos, n));
            pos += n;
        }
    }

    @Property
    void requests_decodeAsWritten_whereverTheStreamIsCut(
            @ForAll @Size(min = 1, max = 8) List<@From("request") Request> requests,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 700) Integer> readSizes) {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        for (Request r : requests) {
            ByteBuf data = r.data() == null ? null : Unpooled.wrappedBuffer(r.data());
            ByteBuf written = RequestWriter.write(
                    UnpooledByteBufAllocator.DEFAULT, r.command().word(), r.args(), data, false);
            wire.writeBytes(ByteBufUtil.getBytes(written));
            written.release();
        }
        EmbeddedChannel channel = new EmbeddedChannel(new MemcachedRequestDecoder(LIMITS));
        feed(channel, wire.toByteArray(), readSizes);
        for (Request expected : requests) {
            Object m = channel.readInbound();
            assertTrue(m instanceof MemcachedRequest, "expected " + expected + ", got " + m);
            MemcachedRequest got = (MemcachedRequest) m;
            try {
                assertEquals(expected.command(), got.command());
                assertEquals(expected.args(), got.args());
                assertEquals(expected.quiet(), got.quiet(), "quiet flag of " + expected);
                if (expected.data() == null) {
                    assertNull(got.data());
                } else {
                    assertArrayEquals(expected.data(), ByteBufUtil.getBytes(got.data()), "data of " + expected);
                }
            } finally {
                got.release();
            }
        }
        assertNull(channel.readInbound(), "more requests decoded than written");
        channel.finishAndReleaseAll();
    }

    private static final List<String> STATUS_LINES = List.of(
            "STORED",
            "NOT_STORED",
            "EXISTS",
            "NOT_FOUND",
            "DELETED",
            "TOUCHED",
            "OK",
            "18446744073709551615",
            "VERSION 1.6.21",
            "ERROR",
            "CLIENT_ERROR bad data chunk",
            "SERVER_ERROR out of memory storing object");

    private static boolean isError(String line) {
        return line.equals("ERROR") || line.startsWith("CLIENT_ERROR ") || line.startsWith("SERVER_ERROR ");
    }

    /** {@code VALUE <key> <flags> <bytes> [<cas>]\r\n<data>\r\n}. */
    @Provide
    Arbitrary<String[]> item() {
        return Combinators.combine(key(), uint64(), value(), Arbitraries.of(true, false), uint64())
                .as((k, flags, data, withCas, cas) -> new String[] {
                    k,
                    "VALUE " + k + " " + flags + " " + data.length + (withCas ? " " + cas : "") + "\r\n"
                            + new String(data, StandardCharsets.ISO_8859_1) + "\r\n"
                });
    }

    /** One meta reply: {@code VA <size> <flags>\r\n<data>\r\n}, or a status line. */
    private Arbitrary<String> metaReply() {
        Arbitrary<String> va = Combinators.combine(value(), Arbitraries.of("", " f0", " f5 t-1", " c42 kkey"))
                .as((data, flags) ->
                        "VA " + data.length + flags + "\r\n" + new String(data, StandardCharsets.ISO_8859_1) + "\r\n");
        return Arbitraries.oneOf(va, Arbitraries.of("HD\r\n", "HD f5\r\n", "EN\r\n", "NF\r\n", "NS\r\n", "EX\r\n"));
    }

    @Provide
    Arbitrary<Reply> reply() {
        Arbitrary<Reply> line =
                Arbitraries.of(STATUS_LINES).map(l -> new Reply(ReplyFormat.LINE, l + "\r\n", List.of(), isError(l)));
        Arbitrary<Reply> values = item().list().ofMaxSize(4).map(items -> {
            StringBuilder wire = new StringBuilder();
            items.forEach(i -> wire.append(i[1]));
            return new Reply(ReplyFormat.VALUES, wire.append("END\r\n").toString(), items, false);
        });
        Arbitrary<Reply> valuesError = Arbitraries.of("SERVER_ERROR out of memory", "CLIENT_ERROR bad command line")
                .map(l -> new Reply(ReplyFormat.VALUES, l + "\r\n", List.of(), true));
        Arbitrary<Reply> meta = metaReply().map(m -> new Reply(ReplyFormat.META, m, List.of(), false));
        Arbitrary<Reply> untilMn = metaReply()
                .list()
                .ofMaxSize(3)
                .map(ms -> new Reply(ReplyFormat.UNTIL_MN, String.join("", ms) + "MN\r\n", List.of(), false));
        return Arbitraries.oneOf(line, values, valuesError, meta, untilMn);
    }

    @Property
    void replies_comeOutWholeAndByteExact_onePerRequest_whereverTheStreamIsCut(
            @ForAll @Size(min = 1, max = 8) List<@From("reply") Reply> replies,
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 1, max = 700) Integer> readSizes) {
        BackendResponseDecoder decoder = new BackendResponseDecoder(LIMITS);
        EmbeddedChannel channel = new EmbeddedChannel(decoder);
        StringBuilder wire = new StringBuilder();
        for (Reply r : replies) {
            decoder.expect(r.format());
            wire.append(r.wire());
        }
        feed(channel, wire.toString().getBytes(StandardCharsets.ISO_8859_1), readSizes);
        for (Reply expected : replies) {
            BackendReply got = channel.readInbound();
            assertTrue(got != null, "missing reply " + expected.wire());
            try {
                assertEquals(expected.wire(), got.bytes().toString(StandardCharsets.ISO_8859_1));
                assertEquals(expected.items().size(), got.items().size(), "items of " + expected.wire());
                for (int i = 0; i < got.items().size(); i++) {
                    BackendReply.Item item = got.items().get(i);
                    assertEquals(expected.items().get(i)[0], item.key());
                    assertEquals(expected.items().get(i)[1], got.itemSlice(item).toString(StandardCharsets.ISO_8859_1));
                }
                assertEquals(expected.error(), got.isError(), "error flag of " + expected.wire());
            } finally {
                got.release();
            }
        }
        assertNull(channel.readInbound(), "more replies than requests");
        assertEquals(0, decoder.outstanding());
        channel.finishAndReleaseAll();
    }
}
