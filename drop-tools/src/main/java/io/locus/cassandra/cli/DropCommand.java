package io.locus.cassandra.cli;

import io.locus.cli.BuildVersion;
import io.locus.cli.ToolRunner;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code locus-drop}: plan and evaluate DROP token layouts. Entry point of {@code ./locus drop ...}.
 *
 * <p>Exit codes: 0 success, 1 a failure while running (message on stderr), 2 bad command-line input. With
 * {@code --json}, stdout holds exactly one JSON document in every case: the result, or {@code {"error": ...,
 * "exitCode": ...}}.
 */
@Command(
        name = "locus-drop",
        mixinStandardHelpOptions = true,
        versionProvider = BuildVersion.class,
        description = "Tools for the DROP partitioner (io.locus.cassandra.DropPartitioner).",
        subcommands = {PlanCommand.class, EvaluateCommand.class, RebalanceCommand.class, CopyCommand.class})
public final class DropCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (expected: plan, evaluate, rebalance or copy)");
    }

    /** Runs the CLI and exits with its code. */
    public static void main(String[] args) {
        Logging.configure(Arrays.asList(args));
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return ToolRunner.run(new CommandLine(new DropCommand()), "locus-drop", e -> 1, args);
    }
}
