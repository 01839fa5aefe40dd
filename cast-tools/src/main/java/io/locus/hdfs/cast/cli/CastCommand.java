package io.locus.hdfs.cast.cli;

import io.locus.cli.BuildVersion;
import io.locus.cli.ToolRunner;
import io.locus.hdfs.cast.io.InputException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code locus-cast}: plan CAST/CAST++ storage tiering for HDFS. Entry point of {@code ./locus cast ...}.
 *
 * <p>Exit codes: 0 success, 1 a failure while running, 2 bad command-line input or a bad input file (the message
 * names the file, the key, the value and what was expected).
 */
@Command(
        name = "locus-cast",
        mixinStandardHelpOptions = true,
        versionProvider = BuildVersion.class,
        description = "CAST/CAST++ storage tiering for HDFS: plan which tier each job's data goes to.",
        subcommands = {
            ProfileCommand.class,
            PlanCommand.class,
            ApplyCommand.class,
            ReportCommand.class,
            ConvertSwimCommand.class
        })
public final class CastCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (expected: profile, plan, apply, report or convert-swim)");
    }

    public static void main(String[] args) {
        // OptaPlanner reports every solve at INFO; the CLI has its own progress bar.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
    }

    /** Runs the CLI with its output and errors on the given writers. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new CastCommand()).setOut(out).setErr(err);
        return ToolRunner.run(cl, "locus-cast", e -> e instanceof InputException ? 2 : 1, args);
    }
}
