package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Laws of the mode-H encoder over generated paths: the token order is the order of the paths' component codes
 * (parents level by level, a directory's direct entries before anything deeper, then the name), a directory's direct
 * entries form one token interval and a subtree of depth at most 20 another, and normalisation does not change a
 * token.
 *
 * <p>Names are hashed to 16-bit level codes, so two different parents can share codes; the contiguity laws are
 * stated for paths whose codes differ from the directory's (what {@link DirectoryRanges} promises: exact up to code
 * collisions, which clients filter by path).
 */
class PathEncoderProperties {
    private static byte[] enc(List<String> components) {
        return PathEncoder.encode(path(components).getBytes(StandardCharsets.UTF_8));
    }

    private static String path(List<String> components) {
        return "/" + String.join("/", components);
    }

    private static int code16(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        return PathEncoder.code16(b, 0, b.length);
    }

    private static long code32(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        return PathEncoder.code32(b, 0, b.length);
    }

    /** The parents' level codes, 0 for the levels a shallower parent lacks, then the name code. */
    private static long[] codeSequence(List<String> components) {
        long[] seq = new long[TokenLayout.LEVELS + 1];
        for (int i = 0; i < components.size() - 1; i++) {
            seq[i] = code16(components.get(i));
        }
        seq[TokenLayout.LEVELS] = code32(components.get(components.size() - 1));
        return seq;
    }

    private static List<Integer> parentCodes(List<String> components, int levels) {
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < levels; i++) {
            codes.add(code16(components.get(i)));
        }
        return codes;
    }

    private static boolean inside(DirectoryRanges.Interval r, byte[] token) {
        return TokenMath.compare(token, r.first()) >= 0 && TokenMath.compare(token, r.last()) <= 0;
    }

    /** Path components: never empty, "." or "..", never holding '/'; ASCII, Latin-1, CJK and a space. */
    @Provide
    Arbitrary<String> name() {
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .withChars('.', '-', '_', ' ', 'é', 'ß', '名', '前')
                .ofMinLength(1)
                .ofMaxLength(24)
                .filter(s -> !s.equals(".") && !s.equals(".."));
    }

    /** A few short names, so that generated paths share directories. */
    @Provide
    Arbitrary<String> shortName() {
        return Arbitraries.strings().withChars('a', 'b', 'c').ofMinLength(1).ofMaxLength(2);
    }

    /** A path with a parent of at most 20 levels (no overflow field). */
    @Provide
    Arbitrary<List<String>> path() {
        return Arbitraries.oneOf(name(), shortName()).list().ofMinSize(1).ofMaxSize(TokenLayout.LEVELS + 1);
    }

    /** Paths in a small tree of the names "a".."cc", at most 6 levels deep, so that many share their parents. */
    @Provide
    Arbitrary<List<List<String>>> tree() {
        return shortName().list().ofMinSize(1).ofMaxSize(6).list().ofMinSize(2).ofMaxSize(60);
    }

    /** Lexicographic path order, by codes, is the token order. */
    @Property
    void tokenOrder_isTheLexicographicOrderOfTheComponentCodes(
            @ForAll("path") List<String> a, @ForAll("path") List<String> b) {
        int byCodes = Integer.signum(java.util.Arrays.compareUnsigned(codeSequence(a), codeSequence(b)));
        int byTokens = Integer.signum(TokenMath.compare(enc(a), enc(b)));
        assertEquals(byCodes, byTokens, path(a) + " vs " + path(b));
    }

    /** A directory's own entry comes before all of its subtree, and its direct entries before anything deeper. */
    @Property
    void entryBeforeItsSubtree_directEntriesBeforeDeeperOnes(
            @ForAll("path") List<String> dir, @ForAll("name") String file, @ForAll("path") List<String> below) {
        Assume.that(dir.size() + below.size() <= TokenLayout.LEVELS + 1 && below.size() >= 2);
        List<String> direct = new ArrayList<>(dir);
        direct.add(file);
        List<String> deeper = new ArrayList<>(dir);
        deeper.addAll(below);
        assertTrue(TokenMath.compare(enc(dir), enc(direct)) < 0, path(dir) + " before " + path(direct));
        assertTrue(TokenMath.compare(enc(direct), enc(deeper)) < 0, path(direct) + " before " + path(deeper));
    }

    /** Sorted by token, the paths under any directory of the tree are one contiguous run. */
    @Property
    void everySubtree_isOneRunOfTheTokenOrder(@ForAll("tree") List<List<String>> paths) {
        Set<String> names = new HashSet<>();
        paths.forEach(names::addAll);
        Assume.that(names.stream().map(PathEncoderProperties::code16).distinct().count() == names.size());
        List<List<String>> sorted = new ArrayList<>(paths);
        sorted.sort(Comparator.comparing(PathEncoderProperties::enc, TokenMath::compare));
        Set<List<String>> dirs = new HashSet<>();
        for (List<String> p : paths) {
            for (int d = 1; d < p.size(); d++) {
                dirs.add(p.subList(0, d));
            }
        }
        for (List<String> dir : dirs) {
            int first = -1;
            int last = -1;
            int count = 0;
            for (int i = 0; i < sorted.size(); i++) {
                List<String> p = sorted.get(i);
                if (p.size() > dir.size() && p.subList(0, dir.size()).equals(dir)) {
                    first = first < 0 ? i : first;
                    last = i;
                    count++;
                }
            }
            assertEquals(last - first + 1, count, "entries under " + path(dir) + " are not contiguous: " + sorted);
        }
    }

    /** Every direct entry of a directory (any depth, overflow included) lies in its listing interval, nothing else. */
    @Property
    void listing_holdsTheDirectEntries_andNoOtherPath(
            @ForAll("deepDir") List<String> dir, @ForAll("name") String file, @ForAll("path") List<String> other) {
        DirectoryRanges.Interval listing = DirectoryRanges.listing(path(dir));
        List<String> entry = new ArrayList<>(dir);
        entry.add(file);
        assertTrue(inside(listing, enc(entry)), path(entry) + " in the listing of " + path(dir));
        List<String> otherParent = other.subList(0, other.size() - 1);
        Assume.that(dir.size() != otherParent.size()
                || !parentCodes(dir, Math.min(dir.size(), TokenLayout.LEVELS))
                        .equals(parentCodes(otherParent, Math.min(dir.size(), TokenLayout.LEVELS))));
        assertFalse(inside(listing, enc(other)), path(other) + " in the listing of " + path(dir));
    }

    /** Directories of 0 to 24 levels, so that some use the overflow field. */
    @Provide
    Arbitrary<List<String>> deepDir() {
        return Arbitraries.oneOf(name(), shortName()).list().ofMaxSize(TokenLayout.LEVELS + 4);
    }

    /** Every path below a directory of depth <= 20 lies in its subtree interval; a path outside does not. */
    @Property
    void subtree_holdsEveryPathBelow_andNoPathOutside(
            @ForAll("path") List<String> dir, @ForAll("path") List<String> rest, @ForAll("path") List<String> other) {
        Assume.that(dir.size() <= TokenLayout.LEVELS);
        DirectoryRanges.Interval subtree = DirectoryRanges.subtree(path(dir));
        List<String> below = new ArrayList<>(dir);
        below.addAll(rest);
        assertTrue(inside(subtree, enc(below)), path(below) + " in the subtree of " + path(dir));
        Assume.that(
                other.size() <= dir.size() || !parentCodes(other, dir.size()).equals(parentCodes(dir, dir.size())));
        assertFalse(inside(subtree, enc(other)), path(other) + " in the subtree of " + path(dir));
    }

    /** Repeated and trailing slashes and "." segments leave the token unchanged. */
    @Property
    void normalisation_leavesTheTokenUnchanged(@ForAll("path") List<String> p, @ForAll("noise") List<String> noise) {
        StringBuilder noisy = new StringBuilder();
        for (int i = 0; i < p.size(); i++) {
            noisy.append(noise.get(i % noise.size())).append(p.get(i));
        }
        noisy.append(noise.get(p.size() % noise.size()));
        assertArrayEquals(
                enc(p),
                PathEncoder.encode(noisy.toString().getBytes(StandardCharsets.UTF_8)),
                noisy + " vs " + path(p));
    }

    /** Separators that normalise to a single '/': each starts and ends with '/'. */
    @Provide
    Arbitrary<List<String>> noise() {
        return Combinators.combine(
                        Arbitraries.integers().between(1, 3),
                        Arbitraries.integers().between(0, 2))
                .as((slashes, dots) -> "/".repeat(slashes) + "./".repeat(dots))
                .list()
                .ofMinSize(1)
                .ofMaxSize(4);
    }
}
