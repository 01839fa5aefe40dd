package io.locus.cassandra.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        version = "locus-drop 0.1.0",
        description = "Tools for the DROP partitioner (io.locus.cassandra.DropPartitioner).",
        subcommands = {PlanCommand.class, EvaluateCommand.class, RebalanceCommand.class})
public final class DropCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "missing command (expected: plan, evaluate or rebalance)");
    }

    /** Runs the CLI and exits with its code. */
    public static void main(String[] args) {
        Logging.configure(Arrays.asList(args));
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (for tests and embedding). */
    public static int run(String... args) {
        boolean json = List.of(args).contains("--json");
        CommandLine cl = new CommandLine(new DropCommand());
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            String message = e.getMessage() != null ? e.getMessage() : e.toString();
            line.getErr().println("locus-drop: " + message);
            line.getErr().flush();
            if (json) {
                printError(line.getOut(), message, 1);
            }
            return 1;
        });
        CommandLine.IParameterExceptionHandler usage = cl.getParameterExceptionHandler();
        cl.setParameterExceptionHandler((e, arguments) -> {
            int code = usage.handleParseException(e, arguments);
            if (json) {
                printError(e.getCommandLine().getOut(), e.getMessage(), code);
            }
            return code;
        });
        return cl.execute(args);
    }

    private static void printError(PrintWriter out, String message, int code) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("error", message);
        error.put("exitCode", code);
        OutputOptions.printJson(out, error);
    }
}
