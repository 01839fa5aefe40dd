package io.locus.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

class ToolRunnerTest {
    @Command(name = "locus-test", mixinStandardHelpOptions = true, versionProvider = BuildVersion.class)
    static final class Tool implements Callable<Integer> {
        @Mixin
        OutputOptions output;

        @Option(names = "--fail")
        String fail;

        @Override
        public Integer call() {
            if (fail != null) {
                throw fail.equals("input")
                        ? new IllegalArgumentException("bad file x.yaml")
                        : new IllegalStateException("no cluster");
            }
            return 0;
        }
    }

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl =
                new CommandLine(new Tool()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        return ToolRunner.run(cl, "locus-test", e -> e instanceof IllegalArgumentException ? 2 : 1, args);
    }

    @Test
    void aFailure_isOneLineOnStderr_withTheCodeTheToolGivesIt() {
        assertEquals(1, run("--fail", "runtime"));
        assertEquals("locus-test: no cluster", err.toString().trim());
        assertEquals("", out.toString());
        assertEquals(2, run("--fail", "input"));
    }

    @Test
    void withJson_aFailureIsAlsoOneJsonDocumentOnStdout() {
        assertEquals(2, run("--json", "--fail", "input"));
        assertEquals(
                "{\"error\":\"bad file x.yaml\",\"exitCode\":2}", out.toString().trim());
    }

    @Test
    void withJson_badArgumentsAreAJsonDocumentWithExitCode2() {
        assertEquals(2, run("--json", "--no-such-option"));
        assertEquals(
                "{\"error\":\"Unknown option: '--no-such-option'\",\"exitCode\":2}",
                out.toString().trim());
        assertTrue(err.toString().contains("Usage: locus-test"), err.toString());
    }

    @Test
    void version_isTheBuildsVersion() {
        assertEquals(0, run("--version"));
        assertEquals(
                "locus-test " + System.getProperty("locus.expected.version"),
                out.toString().trim());
        assertEquals(System.getProperty("locus.expected.version"), BuildVersion.get());
    }

    @Test
    void verbosity_isReadFromTheRawArguments() {
        assertEquals("WARN", OutputOptions.logLevel(List.of("plan", "--json")));
        assertEquals("INFO", OutputOptions.logLevel(List.of("-v", "plan")));
        assertEquals("DEBUG", OutputOptions.logLevel(List.of("plan", "-vv")));
        assertEquals("DEBUG", OutputOptions.logLevel(List.of("--verbose", "-v")));
    }
}
