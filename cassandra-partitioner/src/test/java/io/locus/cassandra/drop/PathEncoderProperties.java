package io.locus.cassandra.drop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.generators.SourceDSL.arbitrary;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.quicktheories.QuickTheory;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

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
    /** Fixed, so that every run checks the same examples; a failure reports it with the smallest example found. */
    private static final long SEED = 0x1D5EED01L;

    private static final int EXAMPLES = 1000;

    private static QuickTheory qt() {
        return QuickTheory.qt().withFixedSeed(SEED).withExamples(EXAMPLES);
    }

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

    /** Strings of {@code min..max} characters, each one of {@code chars}. */
    private static Gen<String> strings(String chars, int min, int max) {
        List<Character> alphabet = chars.chars().mapToObj(c -> (char) c).collect(Collectors.toList());
        return lists().of(arbitrary().pick(alphabet))
                .ofSizeBetween(min, max)
                .map(cs -> cs.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    /** Path components: never empty, "." or "..", never holding '/'; ASCII, Latin-1, CJK and a space. */
    private static Gen<String> name() {
        String letters = IntStream.rangeClosed('a', 'z')
                .mapToObj(c -> String.valueOf((char) c))
                .collect(Collectors.joining());
        return strings(letters + ".-_ éß名前", 1, 24).assuming(s -> !s.equals(".") && !s.equals(".."));
    }

    /** A few short names, so that generated paths share directories. */
    private static Gen<String> shortName() {
        return strings("abc", 1, 2);
    }

    private static Gen<List<String>> components(int min, int max) {
        return lists().of(Generate.oneOf(name(), shortName())).ofSizeBetween(min, max);
    }

    /** A path with a parent of at most 20 levels (no overflow field). */
    private static Gen<List<String>> path() {
        return components(1, TokenLayout.LEVELS + 1);
    }

    /** Directories of 0 to 24 levels, so that some use the overflow field. */
    private static Gen<List<String>> deepDir() {
        return components(0, TokenLayout.LEVELS + 4);
    }

    /** Paths in a small tree of the names "a".."cc", at most 6 levels deep, so that many share their parents. */
    private static Gen<List<List<String>>> tree() {
        return lists().of(lists().of(shortName()).ofSizeBetween(1, 6)).ofSizeBetween(2, 60);
    }

    /** A directory and a relative path of at least two components below it, together at most 21 components deep. */
    private static Gen<Pair<List<String>, List<String>>> dirAndDeeperPath() {
        return components(1, TokenLayout.LEVELS - 1)
                .flatMap(dir ->
                        components(2, TokenLayout.LEVELS + 1 - dir.size()).map(below -> Pair.of(dir, below)));
    }

    /** Separators that normalise to a single '/': each starts and ends with '/'. */
    private static Gen<List<String>> noise() {
        Gen<String> separator = integers()
                .between(1, 3)
                .zip(integers().between(0, 2), (slashes, dots) -> "/".repeat(slashes) + "./".repeat(dots));
        return lists().of(separator).ofSizeBetween(1, 4);
    }

    /** Lexicographic path order, by codes, is the token order. */
    @Test
    void tokenOrder_isTheLexicographicOrderOfTheComponentCodes() {
        qt().forAll(path(), path()).checkAssert((a, b) -> {
            int byCodes = Integer.signum(Arrays.compareUnsigned(codeSequence(a), codeSequence(b)));
            int byTokens = Integer.signum(TokenMath.compare(enc(a), enc(b)));
            assertEquals(byCodes, byTokens, path(a) + " vs " + path(b));
        });
    }

    /** A directory's own entry comes before all of its subtree, and its direct entries before anything deeper. */
    @Test
    void entryBeforeItsSubtree_directEntriesBeforeDeeperOnes() {
        qt().forAll(dirAndDeeperPath(), name()).checkAssert((dirAndBelow, file) -> {
            List<String> dir = dirAndBelow._1;
            List<String> direct = new ArrayList<>(dir);
            direct.add(file);
            List<String> deeper = new ArrayList<>(dir);
            deeper.addAll(dirAndBelow._2);
            assertTrue(TokenMath.compare(enc(dir), enc(direct)) < 0, path(dir) + " before " + path(direct));
            assertTrue(TokenMath.compare(enc(direct), enc(deeper)) < 0, path(direct) + " before " + path(deeper));
        });
    }

    /** Sorted by token, the paths under any directory of the tree are one contiguous run. */
    @Test
    void everySubtree_isOneRunOfTheTokenOrder() {
        // The law is exact only for names with distinct codes: the tree's twelve names must have them.
        List<String> treeNames = List.of("a", "b", "c", "aa", "ab", "ac", "ba", "bb", "bc", "ca", "cb", "cc");
        assertEquals(
                treeNames.size(),
                treeNames.stream().map(PathEncoderProperties::code16).distinct().count(),
                "level codes of " + treeNames);
        qt().forAll(tree()).checkAssert(paths -> {
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
        });
    }

    /** Every direct entry of a directory (any depth, overflow included) lies in its listing interval, nothing else. */
    @Test
    void listing_holdsTheDirectEntries_andNoOtherPath() {
        qt().forAll(deepDir(), name(), path()).checkAssert((dir, file, other) -> {
            DirectoryRanges.Interval listing = DirectoryRanges.listing(path(dir));
            List<String> entry = new ArrayList<>(dir);
            entry.add(file);
            assertTrue(inside(listing, enc(entry)), path(entry) + " in the listing of " + path(dir));
            List<String> otherParent = other.subList(0, other.size() - 1);
            int levels = Math.min(dir.size(), TokenLayout.LEVELS);
            if (dir.size() != otherParent.size()
                    || !parentCodes(dir, levels).equals(parentCodes(otherParent, levels))) {
                assertFalse(inside(listing, enc(other)), path(other) + " in the listing of " + path(dir));
            }
        });
    }

    /** Every path below a directory of depth <= 20 lies in its subtree interval; a path outside does not. */
    @Test
    void subtree_holdsEveryPathBelow_andNoPathOutside() {
        qt().forAll(components(1, TokenLayout.LEVELS), path(), path()).checkAssert((dir, rest, other) -> {
            DirectoryRanges.Interval subtree = DirectoryRanges.subtree(path(dir));
            List<String> below = new ArrayList<>(dir);
            below.addAll(rest);
            assertTrue(inside(subtree, enc(below)), path(below) + " in the subtree of " + path(dir));
            if (other.size() <= dir.size() || !parentCodes(other, dir.size()).equals(parentCodes(dir, dir.size()))) {
                assertFalse(inside(subtree, enc(other)), path(other) + " in the subtree of " + path(dir));
            }
        });
    }

    /** Repeated and trailing slashes and "." segments leave the token unchanged. */
    @Test
    void normalisation_leavesTheTokenUnchanged() {
        qt().forAll(path(), noise()).checkAssert((p, noise) -> {
            StringBuilder noisy = new StringBuilder();
            for (int i = 0; i < p.size(); i++) {
                noisy.append(noise.get(i % noise.size())).append(p.get(i));
            }
            noisy.append(noise.get(p.size() % noise.size()));
            assertArrayEquals(
                    enc(p),
                    PathEncoder.encode(noisy.toString().getBytes(StandardCharsets.UTF_8)),
                    noisy + " vs " + path(p));
        });
    }
}
