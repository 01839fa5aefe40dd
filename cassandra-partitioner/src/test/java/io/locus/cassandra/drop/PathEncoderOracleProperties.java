package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * The tuned encoder ({@link PathEncoder} and, for keys of {@link PathEncoder#LONG_KEY} bytes or more,
 * {@link MidPathEncoder} and {@link LongPathEncoder}) gives the token of the naive {@link ReferenceEncoder} for every generated key, whatever array
 * or buffer holds it. Keys mix every case the scans treat apart: names of 1-40 bytes (each 8-byte alignment of a
 * name's end), multi-byte UTF-8, "//", "/./", "..", a trailing '/', 0-40 levels (the overflow field), keys below and
 * above {@code LONG_KEY}, and keys that are not paths; keys of more than 20 levels also with each of these beyond
 * level 20 and among levels 1-20, with component 21 starting in any of the first five 64-byte chunks, and with ends
 * at chunk borders.
 */
class PathEncoderOracleProperties {
    private static final long SEED = 0x70CE5EEDL;
    private static final int EXAMPLES = 3000;

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

    private static Gen<String> strings(String chars, int min, int max) {
        List<Character> alphabet = chars.chars().mapToObj(c -> (char) c).collect(Collectors.toList());
        return lists().of(arbitrary().pick(alphabet))
                .ofSizeBetween(min, max)
                .map(cs -> cs.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    /** One segment between two '/': mostly names, sometimes empty, ".", ".." or a name starting with '.'. */
    private static Gen<String> segment() {
        return Generate.frequency(
                Pair.of(20, strings("abcxyz0-_", 1, 7)),
                Pair.of(10, strings("abcdefgh.", 8, 40)),
                Pair.of(3, strings("aé名", 1, 6)),
                Pair.of(2, Generate.pick(List.of("", ".", ".hidden", "..."))),
                Pair.of(1, Generate.constant("..")));
    }

    /** Absolute paths of 0-40 segments, sometimes with a trailing '/', and now and then a key that is no path. */
    private static Gen<String> key() {
        Gen<String> path = lists().of(segment())
                .ofSizeBetween(0, 40)
                .zip(arbitrary().pick(List.of("", "", "", "/")), (segs, tail) -> "/" + String.join("/", segs) + tail);
        Gen<String> other = strings("ab/.", 0, 50);
        return Generate.frequency(Pair.of(9, path), Pair.of(1, other));
    }

    @Test
    void everyKey_encodesAsTheReferenceEncoder_inItsOwnArray() {
        qt().forAll(key()).checkAssert(k -> {
            assertArrayEquals(ReferenceEncoder.encode(k), PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8)), k);
        });
    }

    /**
     * Paths of 1-63 levels cut or padded to a length around {@link MidPathEncoder}'s bounds ({@code LONG_KEY} and
     * {@code MAX_KEY}, each +-2) or its 64-byte chunk border, so keys just inside and just outside each scan, and
     * components ending at, before and after byte 32, 64 and 96, are all generated.
     */
    private static Gen<String> keyNearMidBounds() {
        int long0 = PathEncoder.LONG_KEY;
        int max = MidPathEncoder.MAX_KEY;
        Gen<Integer> length = arbitrary()
                .pick(List.of(
                        long0 - 2, long0 - 1, long0, long0 + 1, 63, 64, 65, 95, 96, 97, max - 1, max, max + 1, max + 2))
                .mix(integers().between(long0 - 2, max + 2));
        return lists().of(segment()).ofSizeBetween(1, 63).zip(length, (segs, n) -> {
            StringBuilder b = new StringBuilder("/" + String.join("/", segs));
            while (b.length() < n) {
                b.append(b.length() % 3 == 0 ? "/" : "q");
            }
            return b.substring(0, n);
        });
    }

    @Test
    void keysAroundTheMidEncodersBounds_encodeAsTheReferenceEncoder() {
        qt().forAll(keyNearMidBounds(), integers().between(0, 9)).checkAssert((k, after) -> {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            byte[] expected = ReferenceEncoder.encode(k);
            assertArrayEquals(expected, PathEncoder.encode(b), k);
            assertArrayEquals(expected, PathEncoder.encode(Arrays.copyOf(b, b.length + after), 0, b.length), k);
        });
    }

    /**
     * Paths of 21-45 levels (so with an overflow field) whose levels beyond 20 are plain names of 3-9 bytes or, now and
     * then, a name of 1-2 bytes, "", ".", "..", a name of 60-140 bytes (longer than a 64-byte chunk), with or without a
     * trailing '/', and whose length is sometimes cut or padded to end 0-3 bytes before or after a multiple of 64: every
     * shape {@link LongPathEncoder} tells apart on the '/' masks of the levels beyond 20.
     */
    private static Gen<String> deepKey() {
        Gen<String> top =
                lists().of(strings("abcxyz0", 1, 6)).ofSizeBetween(20, 20).map(l -> String.join("/", l));
        Gen<String> deepSegment = Generate.frequency(
                Pair.of(12, strings("abcdefghij", 3, 9)),
                Pair.of(2, strings("ab", 1, 2)),
                Pair.of(1, Generate.pick(List.of("", ".", ".."))),
                Pair.of(1, strings("pqrs", 60, 140)));
        Gen<String> path = top.zip(
                lists().of(deepSegment).ofSizeBetween(1, 25),
                arbitrary().pick(List.of("", "", "/")),
                (t, segs, tail) -> "/" + t + "/" + String.join("/", segs) + tail);
        Gen<Integer> border = integers().between(-3, 3);
        return path.zip(arbitrary().pick(List.of(false, true)), border, (p, cut, d) -> {
            if (!cut) {
                return p;
            }
            int n = (p.length() + 63) / 64 * 64 + d; // the next chunk border, give or take 3 bytes
            StringBuilder b = new StringBuilder(p);
            while (b.length() < n) {
                b.append(b.length() % 5 == 0 ? "/" : "q");
            }
            return b.substring(0, n);
        });
    }

    @Test
    void keysDeeperThan20Levels_encodeAsTheReferenceEncoder() {
        qt().forAll(deepKey()).checkAssert(k -> {
            assertArrayEquals(ReferenceEncoder.encode(k), PathEncoder.encode(k.getBytes(StandardCharsets.UTF_8)), k);
        });
    }

    /**
     * Paths of 21-40 levels whose levels 1-20 are mostly names of 3-12 bytes, so that component 21 starts anywhere in
     * the second to fifth 64-byte chunk (past {@link #deepKey()}'s, whose levels 1-20 have 1-6 bytes); now and then one
     * of levels 1-20 or beyond is "", ".", "..", ".a" or a name of 1-2 bytes, a level beyond 20 is longer than a chunk,
     * and the key is cut or padded to end 0-3 bytes before or after a chunk border.
     */
    private static Gen<String> deepKeyOfLongLevels() {
        Gen<String> level = Generate.frequency(
                Pair.of(60, strings("abcdefghij", 3, 12)),
                Pair.of(1, Generate.pick(List.of("", ".", "..", ".a", "a", "ab"))));
        Gen<String> top = lists().of(level).ofSizeBetween(20, 20).map(l -> String.join("/", l));
        Gen<String> deepSegment = Generate.frequency(
                Pair.of(30, strings("abcdefghij", 3, 9)),
                Pair.of(1, Generate.pick(List.of("", ".", "..", "b", "bc"))),
                Pair.of(1, strings("pqrs", 60, 140)));
        Gen<String> path = top.zip(
                lists().of(deepSegment).ofSizeBetween(1, 20),
                arbitrary().pick(List.of("", "", "", "/")),
                (t, segs, tail) -> "/" + t + "/" + String.join("/", segs) + tail);
        return path.zip(
                arbitrary().pick(List.of(false, false, true)), integers().between(-3, 3), (p, cut, d) -> {
                    if (!cut) {
                        return p;
                    }
                    int n = (p.length() + 63) / 64 * 64 + d;
                    StringBuilder b = new StringBuilder(p);
                    while (b.length() < n) {
                        b.append(b.length() % 7 == 0 ? "/" : "q");
                    }
                    return b.substring(0, n);
                });
    }

    @Test
    void deepKeysOfLongLevels_encodeAsTheReferenceEncoder_inTheirOwnArray_andFromADirectBuffer() {
        qt().forAll(deepKeyOfLongLevels()).checkAssert(k -> {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            byte[] expected = ReferenceEncoder.encode(k);
            assertArrayEquals(expected, PathEncoder.encode(b), k);
            ByteBuffer direct = ByteBuffer.allocateDirect(b.length);
            direct.put(b).flip();
            assertArrayEquals(expected, PathEncoder.encode(direct), k);
        });
    }

    @Test
    void everyKey_encodesAsTheReferenceEncoder_insideALargerArray_andFromADirectBuffer() {
        // Bytes around the key (here '/' or 'x') are read by the 8-byte loads and must never change its token.
        qt().forAll(
                        key(),
                        integers().between(0, 70),
                        integers().between(0, 70),
                        arbitrary().pick(List.of('/', 'x')))
                .checkAssert((k, before, after, filler) -> {
                    byte[] b = k.getBytes(StandardCharsets.UTF_8);
                    byte[] padded = new byte[before + b.length + after];
                    Arrays.fill(padded, (byte) (char) filler);
                    System.arraycopy(b, 0, padded, before, b.length);
                    byte[] expected = ReferenceEncoder.encode(k);
                    assertArrayEquals(expected, PathEncoder.encode(padded, before, b.length), k);
                    assertArrayEquals(
                            expected,
                            PathEncoder.encode(
                                    ByteBuffer.wrap(padded, before, b.length).slice()),
                            k);
                    ByteBuffer direct = ByteBuffer.allocateDirect(padded.length);
                    direct.put(padded).position(before).limit(before + b.length);
                    assertArrayEquals(expected, PathEncoder.encode(direct), k);
                });
    }
}
