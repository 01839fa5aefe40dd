package io.locus.cassandra.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.locus.cassandra.driver.DropDriver;
import java.net.InetSocketAddress;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code HOST:PORT} options, and the driver sessions the commands open on them. */
final class Contact {
    private Contact() {}

    static InetSocketAddress parse(CommandSpec spec, String option, String hostPort) {
        int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
        try {
            return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (RuntimeException e) {
            throw new ParameterException(
                    spec.commandLine(), option + " " + hostPort + " (expected: HOST:PORT, e.g. 10.0.0.1:9042)");
        }
    }

    /**
     * A session on {@code address} that knows DROP's tokens (and is a plain session on any other partitioner), with
     * the 60 s request timeout that whole-range scans on a loaded cluster need.
     */
    static CqlSession session(InetSocketAddress address, String datacenter) {
        DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60))
                .build();
        return DropDriver.sessionBuilder()
                .withConfigLoader(config)
                .addContactPoint(address)
                .withLocalDatacenter(datacenter)
                .build();
    }
}
