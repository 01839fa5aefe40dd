package io.locus.cassandra.driver;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import com.datastax.oss.driver.api.core.session.ProgrammaticArguments;
import com.datastax.oss.driver.internal.core.context.DefaultDriverContext;
import com.datastax.oss.driver.internal.core.metadata.token.ByteOrderedToken;
import com.datastax.oss.driver.internal.core.metadata.token.ByteOrderedTokenFactory;
import com.datastax.oss.driver.internal.core.metadata.token.DefaultTokenFactoryRegistry;
import com.datastax.oss.driver.internal.core.metadata.token.TokenFactory;
import com.datastax.oss.driver.internal.core.metadata.token.TokenFactoryRegistry;
import io.locus.cassandra.drop.PathEncoder;
import java.nio.ByteBuffer;

/**
 * DataStax Java driver 4.x support for clusters running {@code io.locus.cassandra.DropPartitioner}.
 *
 * <p>The driver only knows Cassandra's built-in partitioners; for any other it logs "Unsupported partitioner ..., token
 * map will be empty" and turns token-aware routing and {@code Metadata.getTokenMap()} off. A session built with
 * {@link #sessionBuilder()} registers DROP's token factory instead: the driver parses the 96-hex-digit node tokens as
 * byte-ordered tokens (DROP tokens compare as unsigned bytes, as those do) and hashes routing keys with the same
 * encoder the server runs, so requests go straight to a replica.
 *
 * <pre>{@code
 * try (CqlSession session = DropDriver.sessionBuilder()
 *         .addContactPoint(new InetSocketAddress("10.0.0.1", 9042))
 *         .withLocalDatacenter("dc1")
 *         .build()) {
 *     session.getMetadata().getTokenMap().orElseThrow();   // present
 * }
 * }</pre>
 *
 * <p>Uses driver-internal classes (the only extension point the driver has for this), checked against driver 4.19.3.
 */
public final class DropDriver {
    /** The partitioner class name as a node reports it in {@code system.local}. */
    public static final String PARTITIONER = "io.locus.cassandra.DropPartitioner";

    private DropDriver() {}

    /** A session builder whose sessions know DROP's tokens; otherwise it is a plain {@link CqlSession#builder()}. */
    public static CqlSessionBuilder sessionBuilder() {
        return new CqlSessionBuilder() {
            @Override
            protected DriverContext buildContext(DriverConfigLoader loader, ProgrammaticArguments args) {
                return new DefaultDriverContext(loader, args) {
                    @Override
                    protected TokenFactoryRegistry buildTokenFactoryRegistry() {
                        TokenFactoryRegistry builtIn = new DefaultTokenFactoryRegistry(this);
                        return name ->
                                PARTITIONER.equals(name) ? new DropTokenFactory() : builtIn.tokenFactoryFor(name);
                    }
                };
            }
        };
    }

    /** The driver-side token factory: byte-ordered token values computed by DROP's encoder. */
    public static final class DropTokenFactory implements TokenFactory {
        private final ByteOrderedTokenFactory bytes = new ByteOrderedTokenFactory();

        @Override
        public String getPartitionerName() {
            return PARTITIONER;
        }

        /** The server's token of a partition key (the routing key): the 48 bytes of DROP's encoder. */
        @Override
        public Token hash(ByteBuffer partitionKey) {
            if (!partitionKey.hasRemaining()) {
                return bytes.minToken();
            }
            return new ByteOrderedToken(ByteBuffer.wrap(PathEncoder.encode(partitionKey)));
        }

        @Override
        public Token parse(String tokenString) {
            return bytes.parse(tokenString);
        }

        @Override
        public String format(Token token) {
            return bytes.format(token);
        }

        @Override
        public Token minToken() {
            return bytes.minToken();
        }

        @Override
        public TokenRange range(Token start, Token end) {
            return bytes.range(start, end);
        }
    }
}
