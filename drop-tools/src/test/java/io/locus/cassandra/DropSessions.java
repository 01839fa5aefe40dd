package io.locus.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.locus.cassandra.driver.DropDriver;
import java.net.InetSocketAddress;
import java.time.Duration;

/** Driver sessions for the ITs, built with {@link DropDriver#sessionBuilder()}. */
public final class DropSessions {
    /** SimpleSnitch's data center, which the fixture's nodes use. */
    public static final String DATACENTER = "datacenter1";

    private DropSessions() {}

    public static CqlSession open(InetSocketAddress contactPoint) {
        return open(contactPoint, DATACENTER, "LOCAL_ONE");
    }

    /** A session whose local data center is {@code datacenter}, with requests at {@code consistency} by default. */
    public static CqlSession open(InetSocketAddress contactPoint, String datacenter, String consistency) {
        // Schema changes on a loaded 2-core host take seconds; the 2 s default timeout only adds flakiness.
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(60))
                .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, consistency)
                .build();
        return DropDriver.sessionBuilder()
                .withConfigLoader(config)
                .addContactPoint(contactPoint)
                .withLocalDatacenter(datacenter)
                .build();
    }
}
