package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.drop.TokenMath;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.db.marshal.BytesType;
import org.apache.cassandra.dht.IPartitioner;
import org.apache.cassandra.dht.Range;
import org.apache.cassandra.dht.Splitter;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.exceptions.ConfigurationException;
import org.apache.cassandra.utils.bytecomparable.ByteComparable;
import org.apache.cassandra.utils.bytecomparable.ByteSource;
import org.junit.jupiter.api.Test;

/**
 * The IPartitioner contract, in the spirit of Cassandra's PartitionerTestCase, plus DROP's own properties. Seeds are
 * fixed and printed in failure messages.
 */
class DropPartitionerContractTest {
    private static final long SEED = 20261122L;
    private final IPartitioner p = DropPartitioner.instance;
    private final Random random = new Random(SEED);

    private Token tok(String key) {
        return p.getToken(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)));
    }

    private Token randomToken() {
        byte[] t = new byte[48];
        random.nextBytes(t);
        return p.getTokenFactory().fromByteArray(ByteBuffer.wrap(t));
    }

    private void assertMidpoint(Token left, Token right, int depth) {
        Token mid = p.midpoint(left, right);
        Range<Token> range = new Range<>(left, right);
        assertTrue(range.contains(mid), "seed " + SEED + ": midpoint " + mid + " not in " + range);
        if (depth < 1) {
            return;
        }
        assertMidpoint(left, mid, depth - 1);
        assertMidpoint(mid, right, depth - 1);
    }

    @Test
    void midpoint_staysInsideRandomRanges_recursively() {
        for (int i = 0; i < 50; i++) {
            Token a = randomToken();
            Token b = randomToken();
            assertMidpoint(a, b, 8); // either order: one of them wraps
            assertMidpoint(b, a, 8);
        }
    }

    @Test
    void midpoint_withMinimumToken_andWholeRing() {
        Token min = p.getMinimumToken();
        assertMidpoint(min, randomToken(), 8);
        assertMidpoint(randomToken(), min, 8);
        Token t = randomToken();
        Token mid = p.midpoint(t, t);
        assertNotEquals(t, mid, "whole-ring midpoint must move half way round");
        Token half = p.midpoint(min, min);
        assertEquals(
                TokenMath.RING_SIZE.shiftRight(1),
                new BigInteger(1, p.getTokenFactory().toByteArray(half).array()));
    }

    @Test
    void split_isOrderedInsideTheRange() {
        for (int i = 0; i < 100; i++) {
            Token a = randomToken();
            Token b = randomToken();
            Range<Token> r = new Range<>(a, b);
            Token quarter = p.split(a, b, 0.25);
            Token threeQuarters = p.split(a, b, 0.75);
            assertTrue(r.contains(quarter) && r.contains(threeQuarters), "seed " + SEED + " range " + r);
            assertTrue(new Range<>(a, threeQuarters).contains(quarter), "0.25 before 0.75 in " + r);
        }
        assertThrows(IllegalArgumentException.class, () -> p.split(randomToken(), randomToken(), -0.1));
    }

    @Test
    void tokenFactory_roundTripsStringsBytesAndComparableBytes() {
        Token.TokenFactory f = p.getTokenFactory();
        List<Token> tokens = new ArrayList<>(List.of(
                p.getMinimumToken(), p.getMaximumToken(), tok("/usr/bin/ls"), tok("system"), p.getRandomToken(random)));
        for (int i = 0; i < 100; i++) {
            tokens.add(randomToken());
        }
        for (Token t : tokens) {
            assertEquals(t, f.fromString(f.toString(t)));
            assertEquals(t, f.fromByteArray(f.toByteArray(t)));
            assertEquals(48, f.byteSize(t));
            ByteSource.Peekable src = ByteSource.peekable(t.asComparableBytes(ByteComparable.Version.OSS50));
            assertEquals(t, f.fromComparableBytes(src, ByteComparable.Version.OSS50));
            assertEquals(ByteSource.END_OF_STREAM, src.next(), "reads exactly 48 bytes");
        }
    }

    @Test
    void comparableBytes_orderLikeTokens() {
        for (int i = 0; i < 1000; i++) {
            Token a = randomToken();
            Token b = randomToken();
            int cmp = ByteComparable.compare(
                    v -> a.asComparableBytes(v), v -> b.asComparableBytes(v), ByteComparable.Version.OSS50);
            assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(cmp));
        }
    }

    @Test
    void tokenFactory_validate_rejectsBadTokensWithTheReason() {
        ConfigurationException e = assertThrows(
                ConfigurationException.class, () -> p.getTokenFactory().validate("-9223372036854775808"));
        assertTrue(e.getMessage().contains("has 20 hex digits (expected: exactly 96"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.getTokenFactory().fromByteArray(ByteBuffer.allocate(8)));
    }

    @Test
    void describeOwnership_sumsToOne_for1_2_and256Tokens() {
        for (int n : new int[] {1, 2, 256}) {
            List<Token> tokens = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                tokens.add(randomToken());
            }
            tokens.sort(Token::compareTo);
            Map<Token, Float> owns = p.describeOwnership(tokens);
            double sum = owns.values().stream().mapToDouble(Float::doubleValue).sum();
            assertEquals(1.0, sum, 0.001, n + " tokens, seed " + SEED);
            assertEquals(n, owns.size());
        }
    }

    @Test
    void tokenSize_ofConsecutiveRanges_sumsToOne() {
        List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            tokens.add(randomToken());
        }
        tokens.sort(Token::compareTo);
        double sum = 0;
        for (int i = 0; i < tokens.size(); i++) {
            sum += tokens.get(i).size(tokens.get((i + 1) % tokens.size()));
        }
        assertEquals(1.0, sum, 1e-9);
    }

    @Test
    void splitter_partsAreContainedInTheirRanges_andCoverThem() {
        Splitter s = p.splitter().orElseThrow();
        Token a = tok("/etc/passwd");
        Token b = tok("/var/lib/dpkg/info/bash.list");
        Collection<Range<Token>> input = List.of(new Range<>(a, b), new Range<>(b, a));
        Set<Range<Token>> parts = s.split(input, 7);
        assertTrue(parts.size() >= 7, "parts: " + parts.size());
        for (Range<Token> part : parts) {
            assertTrue(input.stream().anyMatch(r -> r.contains(part)), part + " not inside " + input);
        }
        Range<Token> r = new Range<>(a, b);
        assertEquals(0.5, s.positionInRange(p.midpoint(a, b), r), 1e-9);
    }

    @Test
    void emptyKey_isMinimumToken_andNoNonEmptyKeyIs() {
        assertEquals(p.getMinimumToken(), p.getToken(ByteBuffer.allocate(0)));
        assertTrue(p.getMinimumToken().isMinimum());
        for (String k : TestNamespace.paths().subList(0, 5000)) {
            assertFalse(tok(k).isMinimum(), k);
        }
        for (String k : List.of("/", "//", "/.", "a", "..", "\u0000")) {
            assertFalse(tok(k).isMinimum(), k);
        }
    }

    @Test
    void order_directoryListingIsOneContiguousTokenRange_onTheRealNamespace() {
        // /usr/bin's entries: every namespace key whose token falls between the smallest and largest of them must be
        // a /usr/bin entry too (no 16-bit collisions at this level in the sample), so "ls" is one range scan.
        List<String> paths = TestNamespace.paths();
        List<Token> dir = paths.stream()
                .filter(k -> k.startsWith("/usr/bin/") && k.indexOf('/', 9) < 0)
                .map(this::tok)
                .sorted()
                .toList();
        assertTrue(dir.size() > 100, "entries of /usr/bin: " + dir.size());
        Token lo = dir.get(0);
        Token hi = dir.get(dir.size() - 1);
        long inside = paths.stream()
                .map(this::tok)
                .filter(t -> t.compareTo(lo) >= 0 && t.compareTo(hi) <= 0)
                .count();
        assertEquals(dir.size(), inside);
    }

    @Test
    void decoratedKeys_orderByTokenThenKey_andCarryThisPartitioner() {
        DecoratedKey a = p.decorateKey(ByteBuffer.wrap("/usr/bin/ls".getBytes(StandardCharsets.UTF_8)));
        DecoratedKey b = p.decorateKey(ByteBuffer.wrap("/usr/bin/cat".getBytes(StandardCharsets.UTF_8)));
        assertEquals(Integer.signum(a.getToken().compareTo(b.getToken())), Integer.signum(a.compareTo(b)));
        assertSame(DropPartitioner.instance, a.getToken().getPartitioner());
        assertSame(DropPartitioner.instance, p.getRandomToken().getPartitioner());
        assertSame(BytesType.instance, p.getTokenValidator());
        assertFalse(p.preservesOrder());
        assertEquals(48, p.getMaxTokenSize());
        int cmp = p.partitionOrdering().compare(a.getKey(), b.getKey());
        assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(cmp));
    }

    @Test
    void nextValidToken_isTheNextPosition_andWrapsAtMaximum() {
        Token t = randomToken();
        Token next = t.nextValidToken();
        assertTrue(next.compareTo(t) > 0);
        assertEquals(t, p.midpoint(t, next).equals(next) ? t : null);
        assertEquals(p.getMinimumToken(), p.getMaximumToken().nextValidToken());
    }
}
