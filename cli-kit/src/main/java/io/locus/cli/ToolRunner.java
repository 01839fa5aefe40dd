package io.locus.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.ToIntFunction;
import picocli.CommandLine;

/**
 * Runs a tool's picocli command with the error contract every Locus tool keeps: a failure prints
 * {@code <tool>: <message>} on stderr and exits with the code {@code exitCode} gives it (1 for a failure while running,
 * 2 for bad input); bad arguments print picocli's usage and exit with 2; and with {@code --json}, stdout holds exactly
 * one JSON document in every case: the result, or {@code {"error": <message>, "exitCode": <code>}}.
 */
public final class ToolRunner {
    private ToolRunner() {}

    /** Executes {@code args} on {@code cl} with this contract and returns the exit code. */
    public static int run(CommandLine cl, String tool, ToIntFunction<Exception> exitCode, String... args) {
        return configure(cl, tool, exitCode).execute(args);
    }

    /** Gives {@code cl} this contract, for callers that set its writers and execute it themselves. */
    public static CommandLine configure(CommandLine cl, String tool, ToIntFunction<Exception> exitCode) {
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            String message = e.getMessage() != null ? e.getMessage() : e.toString();
            line.getErr().println(tool + ": " + message);
            line.getErr().flush();
            int code = exitCode.applyAsInt(e);
            if (parsed.originalArgs().contains("--json")) {
                printError(line.getOut(), message, code);
            }
            return code;
        });
        CommandLine.IParameterExceptionHandler usage = cl.getParameterExceptionHandler();
        cl.setParameterExceptionHandler((e, arguments) -> {
            int code = usage.handleParseException(e, arguments);
            if (Arrays.asList(arguments).contains("--json")) {
                printError(e.getCommandLine().getOut(), e.getMessage(), code);
            }
            return code;
        });
        return cl;
    }

    private static void printError(PrintWriter out, String message, int code) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("error", message);
        error.put("exitCode", code);
        JsonOutput.print(out, error);
    }
}
