package io.locus.cassandra.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** The ring to plan, shared by {@code plan} and {@code evaluate} (a picocli mixin). */
final class RingOptions {
    @Option(names = "--nodes", paramLabel = "N", description = "Number of nodes (>= 1).")
    Integer nodes;

    @Option(
            names = "--vnodes",
            defaultValue = "1",
            paramLabel = "V",
            description = "Tokens per node, Cassandra's num_tokens (default: ${DEFAULT-VALUE}).")
    int vnodes;

    @Option(
            names = "--snap-tolerance",
            defaultValue = "0.02",
            paramLabel = "EPS",
            description =
                    "Fraction of a range's keys a boundary may move to cut a shallower subtree (default: ${DEFAULT-VALUE}).")
    double snapTolerance;

    @Option(
            names = "--reserved-share",
            paramLabel = "FRACTION",
            description = "Share of all keys that are not paths (system tables, tables keyed by ids), planned into the "
                    + "reserved region at the top of the ring (default: the share of non-path keys in the sample, "
                    + "else 0.05).")
    Double reservedShare;

    /** Checks the values; {@code nodesRequired} is false when the nodes come from elsewhere (e.g. --dc). */
    void validate(CommandSpec spec, boolean nodesRequired) {
        if (nodesRequired && nodes == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--nodes=N'");
        }
        if ((nodes != null && nodes < 1) || vnodes < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--nodes " + nodes + " --vnodes " + vnodes + " (expected: >= 1 each)");
        }
        if (!(snapTolerance >= 0 && snapTolerance <= 0.5)) {
            throw new ParameterException(
                    spec.commandLine(), "--snap-tolerance " + snapTolerance + " (expected: within [0, 0.5])");
        }
        if (reservedShare != null && !(reservedShare >= 0 && reservedShare < 1)) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--reserved-share " + reservedShare + " (expected: a fraction within [0, 1), e.g. 0.05)");
        }
    }
}
