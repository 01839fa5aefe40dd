package io.locus.gluster.virtcache.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code locus-virtcache}: look at VirtCache's view of a disk file. Entry point of {@code ./locus virtcache ...}.
 *
 * <p>Exit codes: 0 success, 1 a failure while running (message on stderr, e.g. the libgfapi errno), 2 bad
 * command-line input.
 */
@Command(
        name = "locus-virtcache",
        mixinStandardHelpOptions = true,
        version = "locus-virtcache 0.1.0",
        description = "VirtCache for GlusterFS: hot blocks and state of virtual disk files.",
        subcommands = {HotCommand.class, StatusCommand.class, ReplayCommand.class})
public final class VirtCacheCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (expected: hot, status or replay)");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The CLI with its error handling, for callers that capture its output. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new VirtCacheCommand());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("locus-virtcache: " + e.getMessage());
            return 1;
        });
        return cl;
    }
}
