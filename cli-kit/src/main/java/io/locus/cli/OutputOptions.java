package io.locus.cli;

import java.util.List;
import picocli.CommandLine.Option;

/** The output options every command takes (a picocli mixin): {@code --json} and {@code -v}/{@code -vv}. */
public final class OutputOptions {
    @Option(names = "--json", description = "Print JSON and nothing else on stdout, also on failure.")
    public boolean json;

    @Option(
            names = {"-v", "--verbose"},
            description = "Log at INFO (-v) or DEBUG (-vv) on stderr (default: WARN). Logs never go to stdout.")
    public boolean[] verbose = new boolean[0];

    /**
     * The log level the raw arguments ask for: WARN, INFO for one {@code -v} (or {@code --verbose}), DEBUG for more.
     * Read before picocli parses anything, because logging must be set up before the first logger exists.
     */
    public static String logLevel(List<String> args) {
        int verbosity = 0;
        for (String a : args) {
            if (a.equals("--verbose")) {
                verbosity++;
            } else if (a.matches("-v+")) {
                verbosity += a.length() - 1;
            }
        }
        return verbosity == 0 ? "WARN" : verbosity == 1 ? "INFO" : "DEBUG";
    }
}
