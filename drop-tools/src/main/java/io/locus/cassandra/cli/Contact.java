package io.locus.cassandra.cli;

import java.net.InetSocketAddress;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** Parses {@code HOST:PORT} options. */
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
}
