package io.locus.gluster.virtcache.cli;

import io.locus.cli.BuildVersion;
import io.locus.cli.ToolRunner;
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
        versionProvider = BuildVersion.class,
        description = "VirtCache for GlusterFS: hot blocks and state of virtual disk files.",
        subcommands = {HotCommand.class, StatusCommand.class, ReplayCommand.class, ServeCommand.class})
public final class VirtCacheCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (expected: hot, status, replay or serve)");
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** A {@code serve} running on a background thread. */
    public record Serving(ServeCommand command, Thread thread) {
        /** The bound port, once serving (waits up to 60 s). */
        public int port() throws InterruptedException {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (command.boundPort < 0) {
                if (!thread.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("serve did not start listening");
                }
                Thread.sleep(20);
            }
            return command.boundPort;
        }

        /** The client behind the export, so that a caller can drive its state. */
        public io.locus.gluster.virtcache.client.VirtCacheClient client() {
            return command.client;
        }

        /** How many times the export has polled the translator's verdict. */
        public long polls() {
            return command.polls;
        }

        /** Stops serving and waits for the client to close. */
        public void stop() throws InterruptedException {
            command.stop.countDown();
            thread.join(60_000);
        }
    }

    /** Runs {@code serve ARGS} on a background thread (for tests and embedding). */
    public static Serving serveInBackground(String... args) {
        ServeCommand serve = new ServeCommand();
        CommandLine cl = new CommandLine(serve);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("locus-virtcache serve: " + e.getMessage());
            return 1;
        });
        Thread t = new Thread(() -> cl.execute(args), "virtcache-serve");
        t.setDaemon(true);
        t.start();
        return new Serving(serve, t);
    }

    /** The CLI with its error handling, for callers that capture its output. */
    public static CommandLine commandLine() {
        return ToolRunner.configure(new CommandLine(new VirtCacheCommand()), "locus-virtcache", e -> 1);
    }
}
