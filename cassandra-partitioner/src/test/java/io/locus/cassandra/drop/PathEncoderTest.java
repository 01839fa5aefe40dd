package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PathEncoderTest {
    private static byte[] enc(String key) {
        return PathEncoder.encode(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void encode_realNamespace_equalsReferenceImplementationOfTheSpec() {
        for (String p : TestNamespace.paths()) {
            assertArrayEquals(ReferenceEncoder.encode(p), enc(p), p);
        }
    }

    @Test
    void encode_oddKeys_equalReferenceImplementation() {
        for (String k : List.of(
                "",
                "/",
                "//",
                "/.",
                "/./",
                "a",
                "usr/bin",
                "/usr//bin///ls/",
                "/usr/./bin/ls",
                "/usr/../etc",
                "..",
                "/..",
                "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x",
                "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u//./v/w/x",
                "/ünïcødé/名前/файл",
                "/x y/z\tz")) {
            assertArrayEquals(ReferenceEncoder.encode(k), enc(k), "key \"" + k + "\"");
        }
    }

    @Test
    void directEntries_shareTheirParentsFirst44Bytes_andSortBeforeDeeperEntries() {
        byte[] ls = enc("/usr/bin/ls");
        byte[] cat = enc("/usr/bin/cat");
        byte[] deeper = enc("/usr/bin/sub/file");
        assertArrayEquals(Arrays.copyOf(ls, 44), Arrays.copyOf(cat, 44));
        assertTrue(TokenMath.compare(ls, deeper) < 0 && TokenMath.compare(cat, deeper) < 0);
        assertEquals(0, TokenLayout.levelCode(ls, 3), "level 3 of a depth-2 parent is empty");
    }

    @Test
    void subtree_isOneTokenInterval_forEveryDepth2DirectoryOfTheRealNamespace() {
        // Every key of /a/b/** must share the 4-byte prefix code(a)‖code(b) and carry a non-zero level 3 or name.
        byte[] dir = enc("/usr/share/doc"); // the entry of doc itself lives in /usr/share's listing
        byte[] prefix = Arrays.copyOf(enc("/usr/share/doc/x"), 6);
        int inside = 0;
        for (String p : TestNamespace.paths()) {
            if (p.startsWith("/usr/share/doc/")) {
                assertArrayEquals(prefix, Arrays.copyOf(enc(p), 6), p);
                inside++;
            }
        }
        assertTrue(inside > 1000, "namespace has " + inside + " entries under /usr/share/doc");
        assertArrayEquals(Arrays.copyOf(prefix, 4), Arrays.copyOf(dir, 4));
    }

    @Test
    void root_isSmallestPathToken_butNotMinimum() {
        byte[] root = enc("/");
        assertFalse(Arrays.equals(root, TokenMath.minimum()));
        assertArrayEquals(root, enc("//"));
        assertArrayEquals(root, enc("/./"));
        assertEquals(1, TokenLayout.readInt(root, TokenLayout.NAME_OFFSET));
    }

    @Test
    void emptyKey_isMinimumToken() {
        assertArrayEquals(TokenMath.minimum(), PathEncoder.encode(new byte[0]));
    }

    @Test
    void nonEmptyKeys_neverMapToMinimumToken_fuzzed() {
        Random random = new Random(7);
        for (int i = 0; i < 200_000; i++) {
            byte[] key = new byte[1 + random.nextInt(40)];
            random.nextBytes(key);
            if (random.nextBoolean()) {
                key[0] = '/';
            }
            for (int j = 1; j < key.length; j++) {
                if (random.nextInt(4) == 0) {
                    key[j] = '/';
                } else if (random.nextInt(8) == 0) {
                    key[j] = '.';
                }
            }
            byte[] t = PathEncoder.encode(key);
            assertEquals(48, t.length);
            assertFalse(Arrays.equals(t, TokenMath.minimum()), "seed 7, key " + Arrays.toString(key));
        }
    }

    @Test
    void normalisation_repeatedAndTrailingSlashes_andDotSegments_areIgnored() {
        assertArrayEquals(enc("/usr/bin/ls"), enc("/usr//bin///ls/"));
        assertArrayEquals(enc("/usr/bin/ls"), enc("/./usr/./bin/ls/."));
    }

    @Test
    void dotDotSegment_goesToNonPathRegion_deterministically() {
        byte[] t = enc("/usr/../etc/passwd");
        assertTrue(TokenLayout.isNonPath(t));
        assertArrayEquals(t, enc("/usr/../etc/passwd"));
        assertNotEquals(TokenMath.toHex(t), TokenMath.toHex(enc("/etc/passwd")));
    }

    @Test
    void nonPathKeys_areAboveEveryPathToken() {
        byte[] nonPath = enc("system_schema");
        assertTrue(TokenLayout.isNonPath(nonPath));
        for (String p : TestNamespace.paths()) {
            assertTrue(TokenMath.compare(enc(p), nonPath) < 0, p);
        }
    }

    @Test
    void invalidUtf8_isHashedAsRawBytes_deterministically() {
        byte[] key = {'/', 'a', '/', (byte) 0xC3, (byte) 0x28, '/', (byte) 0xFF};
        byte[] t = PathEncoder.encode(key);
        assertArrayEquals(t, PathEncoder.encode(key.clone()));
        assertFalse(TokenLayout.isNonPath(t));
        assertEquals(PathEncoder.code32(new byte[] {(byte) 0xFF}, 0, 1), TokenLayout.readInt(t, 44) & 0xFFFF_FFFFL);
    }

    @Test
    void deepPath_over20Levels_usesOverflowField_andKeepsDirectEntriesTogether() {
        StringBuilder dir = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            dir.append("/d").append(i);
        }
        byte[] a = enc(dir + "/a");
        byte[] b = enc(dir + "/b");
        assertArrayEquals(Arrays.copyOf(a, 44), Arrays.copyOf(b, 44));
        assertNotEquals(0, TokenLayout.readInt(a, TokenLayout.OVERFLOW_OFFSET));
        assertEquals(21, TokenLayout.parentDepth(a));
    }

    @Test
    void name64KiB_andByteBufferViews_giveTheSameTokenAsArrays() {
        byte[] big = new byte[65_536 + 5];
        Arrays.fill(big, (byte) 'n');
        System.arraycopy("/tmp/".getBytes(StandardCharsets.US_ASCII), 0, big, 0, 5);
        byte[] t = PathEncoder.encode(big);
        ByteBuffer direct = ByteBuffer.allocateDirect(big.length);
        direct.put(big).flip();
        assertArrayEquals(t, PathEncoder.encode(direct));
        ByteBuffer slice =
                ByteBuffer.wrap(new byte[big.length + 10], 3, big.length).slice();
        slice.put(big).flip();
        assertArrayEquals(t, PathEncoder.encode(slice));
        assertEquals(0, slice.position(), "encode must not move the buffer");
    }

    @Test
    void directBuffers_ofShrinkingAndGrowingLength_giveTheArrayToken_despiteTheReusedScratchArray() {
        // The scratch array keeps the bytes of the previous, longer key: a short key must not see them.
        for (String k : List.of(
                "/usr/share/doc/bash/copyright/and/some/more/levels",
                "/a",
                "/usr/bin/ls",
                "x",
                "/" + "n".repeat(5000),
                "/tmp/",
                "/d1/d2/d3/d4/d5/d6/d7/d8/d9/d10/d11/d12/d13/d14/d15/d16/d17/d18/d19/d20/d21//./d22/f")) {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            ByteBuffer direct = ByteBuffer.allocateDirect(b.length + 4);
            direct.put(new byte[] {'/', 'z', '/', 'z'}).put(b).flip().position(4);
            assertArrayEquals(ReferenceEncoder.encode(k), PathEncoder.encode(direct), k);
            assertEquals(4, direct.position(), "encode must not move the buffer");
        }
    }

    @Test
    void encode_randomKeysInsideLargerArrays_equalsReferenceImplementation_fuzzed() {
        // The encoder reads 8 bytes at a time and may read past the key inside the array: bytes around the key
        // (often '/') must never change its token. Lengths cover every 8-byte alignment of every component end.
        Random random = new Random(8);
        String[] alphabet = {"/", "/", "/", ".", "a", "b", "c", "é", "名"};
        for (int i = 0; i < 30_000; i++) {
            StringBuilder b = new StringBuilder(random.nextInt(4) == 0 ? "" : "/");
            int len = random.nextInt(i < 15_000 ? 24 : 120);
            for (int j = 0; j < len; j++) {
                b.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String k = b.toString();
            byte[] key = k.getBytes(StandardCharsets.UTF_8);
            byte[] padded = new byte[key.length + random.nextInt(12) + random.nextInt(12)];
            Arrays.fill(padded, random.nextBoolean() ? (byte) '/' : (byte) 'x');
            int off = random.nextInt(padded.length - key.length + 1);
            System.arraycopy(key, 0, padded, off, key.length);
            assertArrayEquals(
                    ReferenceEncoder.encode(k),
                    PathEncoder.encode(padded, off, key.length),
                    "seed 8, case " + i + ", key \"" + k + "\" at offset " + off + " of " + padded.length);
        }
    }

    /**
     * The '/' mask of 8 bytes is exact for every pattern of '/' positions, whatever the other bytes are (bytes one bit
     * away from '/', 0x00, 0xFF, '.'): both scans' gather multiply must never carry a flag into a neighbour's bit.
     */
    @Test
    void slashBits_flagsExactlyTheSlashBytes_forEveryPatternOfEightBytes() {
        byte[] others = {0, 0x2E, 0x2D, 0x3F, 0x0F, 0x6F, (byte) 0xAF, (byte) 0xFF, 'a'};
        Random r = new Random(16);
        for (int pattern = 0; pattern < 256; pattern++) {
            for (int trial = 0; trial < 64; trial++) {
                long w = 0;
                for (int i = 0; i < 8; i++) {
                    byte b = (pattern >>> i & 1) != 0 ? (byte) '/' : others[r.nextInt(others.length)];
                    w |= (b & 0xFFL) << (8 * i);
                }
                assertEquals(pattern, LongPathEncoder.slashBits(w), "word " + Long.toHexString(w));
                assertEquals(pattern, MidPathEncoder.slashBits(w), "word " + Long.toHexString(w));
            }
        }
    }

    /**
     * Deep keys whose component 20 ends at every offset from byte 80 to byte 261, in the second to fifth 64-byte chunk
     * (the first name 3-70 bytes, the other 19 of 3, 6 or 9), with 0-3 levels beyond 20 and a basename of 1, 4, 12 or 70 bytes, so that
     * component 21, the last '/' and the key's end fall on every side of a chunk border: each gives the reference
     * encoder's token.
     */
    @Test
    void deepKeys_withComponent21StartingAnywhere_equalReferenceImplementation() {
        for (int first = 3; first <= 70; first++) {
            for (int other : new int[] {3, 6, 9}) {
                for (int beyond = 0; beyond <= 3; beyond++) {
                    for (String basename : List.of("n", "name", "basename.txt", "b".repeat(70))) {
                        StringBuilder b = new StringBuilder("/").append("f".repeat(first));
                        for (int level = 2; level <= 20 + beyond; level++) {
                            b.append('/')
                                    .append(Character.toString('a' + level % 26).repeat(other));
                        }
                        String k = b.append('/').append(basename).toString();
                        assertArrayEquals(ReferenceEncoder.encode(k), enc(k), k);
                    }
                }
            }
        }
    }
}
