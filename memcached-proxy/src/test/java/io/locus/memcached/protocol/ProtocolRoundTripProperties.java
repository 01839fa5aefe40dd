package io.locus.memcached.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Round trips through the codecs over generated traffic: requests written by {@link RequestWriter} come out of
 * {@link MemcachedRequestDecoder} as the same commands, tokens, data blocks and quiet flags, and backend replies come
 * out of {@link BackendResponseDecoder} whole and byte for byte, one per request; both for any keys and values within
 * memcached's limits and wherever the byte stream is cut into reads.
 */
class ProtocolRoundTripProperties {
    private static final ProtocolLimits LIMITS = ProtocolLimits.DEFAULTS;

    /** Fixed, so that every run checks the same examples; a failure reports it with the smallest example found. */
    private static final long SEED = 0x9207055EED04L;

    private static final int EXAMPLES = 1000;

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    /** Key characters: '!'..'~' and Latin-1 0x80..0xFF. */
    private static final List<Character> KEY_CHARS = IntStream.concat(
                    IntStream.rangeClosed('!', '~'), IntStream.rangeClosed(0x80, 0xFF))
            .mapToObj(c -> (char) c)
            .collect(Collectors.toList());

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
    private static Gen<String> key() {
        return lists().of(arbitrary().pick(KEY_CHARS))
                .ofSizeBetween(1, LIMITS.maxKeyBytes())
                .map(cs -> cs.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    /** Values: any bytes (0 to 3000 of them), and values holding "\r\n", "END" and "VALUE" inside. */
    private static Gen<byte[]> value() {
        Gen<byte[]> any = Generate.byteArrays(
                integers().between(0, 3000), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
        Gen<byte[]> tricky = lists().of(
                        arbitrary().pick("\r\n", "END\r\n", "\r\nEND\r\n", "VALUE k 0 1\r\n", "MN\r\n", ""))
                .ofSizeBetween(0, 4)
                .map(parts -> String.join("", parts).getBytes(StandardCharsets.ISO_8859_1));
        return Generate.oneOf(any, tricky).describedAs(v -> "<" + v.length + " bytes>");
    }

    /** Unsigned 64-bit decimals: anywhere in the range, small ones, and the ends. */
    private static Gen<String> uint64() {
        return Generate.frequency(
                        Pair.of(2, longs().all()),
                        Pair.of(1, longs().between(0, 1000)),
                        Pair.of(1, arbitrary().pick(0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE)))
                .map(v -> Long.toUnsignedString(v));
    }

    /** Signed 32-bit decimals: anywhere in the range, small ones, and the ends. */
    private static Gen<String> int32() {
        return Generate.frequency(
                        Pair.of(2, integers().all()),
                        Pair.of(1, integers().between(-1000, 1000)),
                        Pair.of(1, arbitrary().pick(0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE)))
                .map(v -> String.valueOf(v));
    }

    private static Gen<Boolean> noreply() {
        return booleans().all();
    }

    private static List<String> withNoreply(List<String> args, boolean noreply) {
        List<String> out = new ArrayList<>(args);
        if (noreply) {
            out.add("noreply");
        }
        return out;
    }

    private static Gen<Request> request() {
        Gen<Request> retrieval = arbitrary()
                .pick(Command.GET, Command.GETS)
                .zip(lists().of(key()).ofSizeBetween(1, 8), (c, keys) -> new Request(c, keys, null, false));
        Gen<Request> gat = arbitrary()
                .pick(Command.GAT, Command.GATS)
                .zip(int32(), lists().of(key()).ofSizeBetween(1, 4), (c, exptime, keys) -> {
                    List<String> args = new ArrayList<>(List.of(exptime));
                    args.addAll(keys);
                    return new Request(c, args, null, false);
                });
        Gen<Command> storageCommands =
                arbitrary().pick(Command.SET, Command.ADD, Command.REPLACE, Command.APPEND, Command.PREPEND);
        Gen<Request> storage = in -> {
            Command c = storageCommands.generate(in);
            String k = key().generate(in);
            String flags = uint64().generate(in);
            String exptime = int32().generate(in);
            byte[] data = value().generate(in);
            boolean q = noreply().generate(in);
            return new Request(c, withNoreply(List.of(k, flags, exptime, Integer.toString(data.length)), q), data, q);
        };
        Gen<Request> cas = in -> {
            String k = key().generate(in);
            String flags = uint64().generate(in);
            String exptime = int32().generate(in);
            byte[] data = value().generate(in);
            String unique = uint64().generate(in);
            boolean q = noreply().generate(in);
            return new Request(
                    Command.CAS,
                    withNoreply(List.of(k, flags, exptime, Integer.toString(data.length), unique), q),
                    data,
                    q);
        };
        Gen<Request> keyed = arbitrary()
                .pick(Command.INCR, Command.DECR, Command.TOUCH, Command.DELETE)
                .zip(
                        key(),
                        uint64(),
                        noreply(),
                        (c, k, n, q) -> new Request(
                                c, withNoreply(c == Command.DELETE ? List.of(k) : List.of(k, n), q), null, q));
        Gen<List<String>> flags = lists().of(
                        arbitrary().pick("v", "f", "t", "c", "k", "s", "q", "T30", "Oab", "N30", "F5", "I"))
                .ofSizeBetween(0, 5);
        Gen<Request> meta = arbitrary().pick(Command.MG, Command.MD).zip(key(), flags, (c, k, f) -> {
            List<String> args = new ArrayList<>(List.of(k));
            args.addAll(f);
            return new Request(c, args, null, f.contains("q"));
        });
        Gen<Request> metaSet = key().zip(value(), flags, (k, data, f) -> {
            List<String> args = new ArrayList<>(List.of(k, Integer.toString(data.length)));
            args.addAll(f);
            return new Request(Command.MS, args, data, f.contains("q"));
        });
        return Generate.oneOf(retrieval, gat, storage, cas, keyed, meta, metaSet);
    }

    /** Sizes of the reads the byte stream is cut into: 1 to 6 of them, each of 1..700 bytes. */
    private static Gen<List<Integer>> readSizes() {
        return lists().of(integers().between(1, 700)).ofSizeBetween(1, 6);
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

    @Test
    void requests_decodeAsWritten_whereverTheStreamIsCut() {
        qt().forAll(lists().of(request()).ofSizeBetween(1, 8), readSizes()).checkAssert(this::requestRoundTrip);
    }

    private void requestRoundTrip(List<Request> requests, List<Integer> readSizes) {
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
    private static Gen<String[]> item() {
        return key().zip(uint64(), value(), booleans().all(), uint64(), (k, flags, data, withCas, cas) -> new String[] {
            k,
            "VALUE " + k + " " + flags + " " + data.length + (withCas ? " " + cas : "") + "\r\n"
                    + new String(data, StandardCharsets.ISO_8859_1) + "\r\n"
        });
    }

    /** One meta reply: {@code VA <size> <flags>\r\n<data>\r\n}, or a status line. */
    private static Gen<String> metaReply() {
        Gen<String> va = value().zip(
                        arbitrary().pick("", " f0", " f5 t-1", " c42 kkey"),
                        (data, flags) -> "VA " + data.length + flags + "\r\n"
                                + new String(data, StandardCharsets.ISO_8859_1) + "\r\n");
        return Generate.oneOf(va, arbitrary().pick("HD\r\n", "HD f5\r\n", "EN\r\n", "NF\r\n", "NS\r\n", "EX\r\n"));
    }

    private static Gen<Reply> reply() {
        Gen<Reply> line =
                arbitrary().pick(STATUS_LINES).map(l -> new Reply(ReplyFormat.LINE, l + "\r\n", List.of(), isError(l)));
        Gen<Reply> values = lists().of(item()).ofSizeBetween(0, 4).map(items -> {
            StringBuilder wire = new StringBuilder();
            items.forEach(i -> wire.append(i[1]));
            return new Reply(ReplyFormat.VALUES, wire.append("END\r\n").toString(), items, false);
        });
        Gen<Reply> valuesError = arbitrary()
                .pick("SERVER_ERROR out of memory", "CLIENT_ERROR bad command line")
                .map(l -> new Reply(ReplyFormat.VALUES, l + "\r\n", List.of(), true));
        Gen<Reply> meta = metaReply().map(m -> new Reply(ReplyFormat.META, m, List.of(), false));
        Gen<Reply> untilMn = lists().of(metaReply())
                .ofSizeBetween(0, 3)
                .map(ms -> new Reply(ReplyFormat.UNTIL_MN, String.join("", ms) + "MN\r\n", List.of(), false));
        return Generate.oneOf(line, values, valuesError, meta, untilMn);
    }

    @Test
    void replies_comeOutWholeAndByteExact_onePerRequest_whereverTheStreamIsCut() {
        qt().forAll(lists().of(reply()).ofSizeBetween(1, 8), readSizes()).checkAssert(this::replyRoundTrip);
    }

    private void replyRoundTrip(List<Reply> replies, List<Integer> readSizes) {
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
                    assertEquals(expected.items().get(i)[0], got.itemKey(item).toString(StandardCharsets.ISO_8859_1));
                    assertTrue(got.itemKeyIs(item, expected.items().get(i)[0].getBytes(StandardCharsets.ISO_8859_1)));
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
