package io.locus.cassandra;

import io.locus.cassandra.drop.PathEncoder;
import io.locus.cassandra.drop.TokenLayout;
import io.locus.cassandra.drop.TokenMath;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.cassandra.db.CachedHashDecoratedKey;
import org.apache.cassandra.db.DecoratedKey;
import org.apache.cassandra.db.marshal.AbstractType;
import org.apache.cassandra.db.marshal.BytesType;
import org.apache.cassandra.db.marshal.PartitionerDefinedOrder;
import org.apache.cassandra.dht.IPartitioner;
import org.apache.cassandra.dht.Range;
import org.apache.cassandra.dht.Splitter;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.exceptions.ConfigurationException;
import org.apache.cassandra.utils.ObjectSizes;
import org.apache.cassandra.utils.bytecomparable.ByteComparable;
import org.apache.cassandra.utils.bytecomparable.ByteSource;

/**
 * DROP, the locality-preserving partitioner of Arumugam's thesis, ch. 6 (names hashed; DESIGN.md, "Token layout"):
 * partition keys that are absolute paths map to 48-byte tokens in which every directory's entries form one contiguous
 * token range and every subtree of depth &lt;= 20 one interval. Other keys (system tables, ids) are hashed into a
 * reserved region at the top of the ring.
 *
 * <p>Install: put the jar in Cassandra's {@code lib/} and set {@code partitioner: io.locus.cassandra.DropPartitioner}
 * in cassandra.yaml, before the cluster first starts (a partitioner can never change once data exists).
 *
 * <p>Guarantees: {@link #getToken} is deterministic, never throws, and maps only the empty key to the minimum token.
 * Token order is not key order ({@link #preservesOrder()} is false): names inside a directory are ordered by hash.
 * Thread-safe; {@link #instance} is the only instance, and every token returns it from {@code getPartitioner()}
 * (Cassandra compares partitioners with {@code ==}).
 */
public final class DropPartitioner implements IPartitioner {
    /*
     * Design notes.
     * - Token arithmetic (midpoint, split, splitter values, Token.size) is over the 2^384 ring of raw token values:
     *   Cassandra's contracts (range containment, the Splitter) are about token positions, not key counts.
     * - describeOwnership is about keys: a DROP ring is deliberately uneven in token space (whole subtrees sit in
     *   tiny intervals), so "Owns" uses the node's sampled keys per range when this node holds data (the same source
     *   as ByteOrderedPartitioner), and token-space fractions only when there is nothing to count.
     * - getRandomToken draws a boundary between depth-2 subtrees, so an unplanned bootstrap never cuts deeper.
     */

    /** The single instance; Cassandra's {@code FBUtilities.instanceOrConstruct} picks it up by this name. */
    public static final DropPartitioner instance = new DropPartitioner();

    static {
        DropPartitionerInfo.register();
    }

    /** System property choosing the ownership estimate: {@code keys} (default) or {@code tokens}. */
    public static final String OWNERSHIP_PROPERTY = "locus.drop.ownership";

    static final DropToken MINIMUM = new DropToken(TokenMath.minimum());
    static final DropToken MAXIMUM = new DropToken(TokenMath.maximum());

    private final PartitionerDefinedOrder partitionOrdering = new PartitionerDefinedOrder(this);
    private final Token.TokenFactory tokenFactory = new DropTokenFactory();
    private final Splitter splitter = new DropSplitter(this);

    private DropPartitioner() {}

    /** A 48-byte DROP token; see {@link TokenLayout}. Immutable. */
    public static final class DropToken extends Token {
        private static final long serialVersionUID = 1L;
        private static final long EMPTY_SIZE = ObjectSizes.measure(new DropToken(new byte[0]));

        final byte[] token;

        DropToken(byte[] token) {
            this.token = token;
        }

        @Override
        public DropPartitioner getPartitioner() {
            return instance;
        }

        @Override
        public long getHeapSize() {
            return EMPTY_SIZE + ObjectSizes.sizeOfArray(token);
        }

        /** A copy of the 48 token bytes. */
        @Override
        public Object getTokenValue() {
            return token.clone();
        }

        /** Fixed length, so the plain bytes are already prefix-free and compare like the tokens. */
        @Override
        public ByteSource asComparableBytes(ByteComparable.Version version) {
            return ByteSource.fixedLength(token);
        }

        /** Fraction of the 2^384 ring from this token to {@code next}; 1.0 when they are equal. */
        @Override
        public double size(Token next) {
            return TokenMath.ringFraction(token, ((DropToken) next).token);
        }

        @Override
        public Token nextValidToken() {
            return new DropToken(TokenMath.increment(token));
        }

        @Override
        public int compareTo(Token other) {
            return TokenMath.compare(token, ((DropToken) other).token);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof DropToken && java.util.Arrays.equals(token, ((DropToken) o).token);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(token);
        }

        /** 96 lower-case hex digits, the same text as the token factory's. */
        @Override
        public String toString() {
            return TokenMath.toHex(token);
        }
    }

    /** Token of the key's bytes: a path token for keys starting with '/', the non-path region otherwise. */
    @Override
    public DropToken getToken(ByteBuffer key) {
        if (!key.hasRemaining()) {
            return MINIMUM;
        }
        return new DropToken(PathEncoder.encode(key));
    }

    @Override
    public DecoratedKey decorateKey(ByteBuffer key) {
        return new CachedHashDecoratedKey(getToken(key), key);
    }

    @Override
    public Token midpoint(Token left, Token right) {
        return new DropToken(TokenMath.midpoint(((DropToken) left).token, ((DropToken) right).token));
    }

    /** @throws IllegalArgumentException if {@code ratioToLeft} is outside [0, 1] */
    @Override
    public Token split(Token left, Token right, double ratioToLeft) {
        return new DropToken(TokenMath.split(((DropToken) left).token, ((DropToken) right).token, ratioToLeft));
    }

    @Override
    public DropToken getMinimumToken() {
        return MINIMUM;
    }

    @Override
    public DropToken getMaximumToken() {
        return MAXIMUM;
    }

    @Override
    public DropToken getRandomToken() {
        return getRandomToken(ThreadLocalRandom.current());
    }

    @Override
    public DropToken getRandomToken(Random random) {
        return new DropToken(TokenMath.randomBoundary(random));
    }

    @Override
    public Token.TokenFactory getTokenFactory() {
        return tokenFactory;
    }

    /** False: inside a directory, entries are ordered by the hash of their name. */
    @Override
    public boolean preservesOrder() {
        return false;
    }

    /**
     * Share of keys per node token. Uses this node's key samples of every table on this partitioner when there are
     * any (and {@code -Dlocus.drop.ownership} is not {@code tokens}), else token-space fractions. Sums to 1 for a
     * non-empty list.
     */
    @Override
    public Map<Token, Float> describeOwnership(List<Token> sortedTokens) {
        Map<Token, Float> result = new HashMap<>();
        if (sortedTokens.isEmpty()) {
            return result;
        }
        List<Range<Token>> ranges = new ArrayList<>();
        Token previous = sortedTokens.get(sortedTokens.size() - 1);
        for (Token t : sortedTokens) {
            ranges.add(new Range<>(previous, t));
            previous = t;
        }
        double[] weights =
                "tokens".equals(System.getProperty(OWNERSHIP_PROPERTY)) ? null : LocalKeySamples.count(ranges);
        if (weights == null) {
            weights = new double[ranges.size()];
            for (int i = 0; i < ranges.size(); i++) {
                weights[i] = sortedTokens.size() == 1
                        ? 1.0
                        : TokenMath.ringFraction(
                                ((DropToken) ranges.get(i).left).token, ((DropToken) ranges.get(i).right).token);
            }
        }
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        for (int i = 0; i < ranges.size(); i++) {
            result.merge(ranges.get(i).right, (float) (weights[i] / total), Float::sum);
        }
        return result;
    }

    /** Tokens are 48-byte blobs: {@code token(path)} in CQL is a {@code blob}, bounds are written {@code 0x...}. */
    @Override
    public AbstractType<?> getTokenValidator() {
        return BytesType.instance;
    }

    @Override
    public AbstractType<?> partitionOrdering() {
        return partitionOrdering;
    }

    @Override
    public AbstractType<?> partitionOrdering(AbstractType<?> partitionKeyType) {
        return partitionOrdering.withPartitionKeyType(partitionKeyType);
    }

    @Override
    public Optional<Splitter> splitter() {
        return Optional.of(splitter);
    }

    @Override
    public int getMaxTokenSize() {
        return TokenLayout.TOKEN_BYTES;
    }

    /** Text form: 96 hex digits; byte form: the 48 token bytes. */
    static final class DropTokenFactory extends Token.TokenFactory {
        @Override
        public ByteBuffer toByteArray(Token token) {
            return ByteBuffer.wrap(((DropToken) token).token.clone());
        }

        /** @throws IllegalArgumentException if the buffer does not hold exactly 48 bytes */
        @Override
        public Token fromByteArray(ByteBuffer bytes) {
            if (bytes.remaining() != TokenLayout.TOKEN_BYTES) {
                throw new IllegalArgumentException(
                        "DROP token of " + bytes.remaining() + " bytes (expected: " + TokenLayout.TOKEN_BYTES + ")");
            }
            byte[] t = new byte[TokenLayout.TOKEN_BYTES];
            bytes.duplicate().get(t);
            return new DropToken(t);
        }

        @Override
        public int byteSize(Token token) {
            return TokenLayout.TOKEN_BYTES;
        }

        /** Reads exactly 48 bytes, leaving the rest of a composite source unread. */
        @Override
        public Token fromComparableBytes(ByteSource.Peekable comparableBytes, ByteComparable.Version version) {
            byte[] t = new byte[TokenLayout.TOKEN_BYTES];
            for (int i = 0; i < t.length; i++) {
                int b = comparableBytes.next();
                if (b == ByteSource.END_OF_STREAM) {
                    throw new IllegalArgumentException("byte-comparable DROP token ended after " + i
                            + " bytes (expected: " + TokenLayout.TOKEN_BYTES + ")");
                }
                t[i] = (byte) b;
            }
            return new DropToken(t);
        }

        @Override
        public String toString(Token token) {
            return TokenMath.toHex(((DropToken) token).token);
        }

        @Override
        public Token fromString(String string) {
            return new DropToken(TokenMath.fromHex(string.trim()));
        }

        @Override
        public void validate(String token) throws ConfigurationException {
            try {
                TokenMath.fromHex(token.trim());
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException(e.getMessage());
            }
        }
    }

    /** Linear map between tokens and [0, 2^384), for compaction's and repair's range splitting. */
    static final class DropSplitter extends Splitter {
        DropSplitter(IPartitioner partitioner) {
            super(partitioner);
        }

        @Override
        protected Token tokenForValue(BigInteger value) {
            return new DropToken(TokenMath.fromBigInteger(value));
        }

        @Override
        protected BigInteger valueForToken(Token token) {
            return TokenMath.toBigInteger(((DropToken) token).token);
        }
    }
}
