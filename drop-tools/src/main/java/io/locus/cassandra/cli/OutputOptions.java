package io.locus.cassandra.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import picocli.CommandLine.Option;

/** Output options every {@code locus-drop} command takes (a picocli mixin), and the JSON writer behind them. */
final class OutputOptions {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Option(names = "--json", description = "Print JSON and nothing else on stdout, also on failure.")
    boolean json;

    @Option(
            names = {"-v", "--verbose"},
            description = "Log at INFO (-v) or DEBUG (-vv) on stderr (default: WARN). Logs never go to stdout.")
    boolean[] verbose = new boolean[0];

    /** {@code value} (maps, lists, strings, numbers, arrays) as one line of JSON. */
    static String toJson(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Prints {@code value} as one line of JSON on {@code out}. */
    static void printJson(PrintWriter out, Object value) {
        out.println(toJson(value));
        out.flush();
    }
}
