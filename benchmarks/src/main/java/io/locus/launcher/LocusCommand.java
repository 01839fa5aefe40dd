package io.locus.launcher;

import io.locus.cli.BuildVersion;
import io.locus.cli.ToolRunner;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The launcher behind {@code ./locus demo} and {@code ./locus bench}: the script installs the hosts' packages and
 * builds what is stale, then hands the rest to this command, which starts each demo and bench step in its own JVM from
 * the class paths the build wrote. The checkout is {@code -Dlocus.root} (default: the working directory).
 */
@Command(
        name = "locus",
        mixinStandardHelpOptions = true,
        versionProvider = BuildVersion.class,
        description = "Demos and benchmarks of Locus's plugins in their real hosts.")
public final class LocusCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: demo or bench");
    }

    /** The command line with its subcommands, on the checkout at {@code root}. */
    public static CommandLine commandLine(Path root, PrintStream out, PrintStream err) {
        return commandLine(root, BenchAreas.all(), out, err);
    }

    static CommandLine commandLine(Path root, List<BenchArea> areas, PrintStream out, PrintStream err) {
        Checkout checkout = new Checkout(root);
        CommandLine cl = new CommandLine(new LocusCommand());
        cl.addSubcommand(new DemoCommand(checkout, out, err));
        CommandLine bench = new CommandLine(new BenchCommand(checkout, areas, out, err));
        // Everything after AREA is the area's own: its options are not the launcher's.
        bench.setStopAtPositional(true);
        cl.addSubcommand("bench", bench);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return ToolRunner.configure(cl, "locus", e -> e instanceof IllegalArgumentException ? 2 : 1);
    }

    public static void main(String[] args) {
        Path root = Path.of(System.getProperty("locus.root", "."));
        System.exit(commandLine(root, System.out, System.err).execute(args));
    }
}
