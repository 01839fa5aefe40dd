package io.locus.cassandra.cli;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The CLI as an operator runs it: a fresh JVM with the module's class path (Cassandra, the driver and logback on it, no
 * test logging configuration), stdout and stderr captured apart.
 */
public final class CliProcess {
    private static final ObjectReader STRICT =
            new ObjectMapper().readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private CliProcess() {}

    /** Runs the CLI in its own JVM; returns exit code, stdout and stderr. */
    public static Result run(String... args) throws IOException, InterruptedException {
        // Without test-classes: its logback-test.xml would hide what an operator's JVM logs.
        String classpath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classpath,
                DropCommand.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(Path.of("target"), "cli-out", ".txt");
        Path err = Files.createTempFile(Path.of("target"), "cli-err", ".txt");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("CLI did not finish within 120 s: " + String.join(" ", args));
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    public record Result(int exit, String stdout, String stderr) {
        public JsonNode json() throws IOException {
            try {
                return STRICT.readValue(stdout);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document: " + e.getMessage() + "\n" + stdout, e);
            }
        }
    }
}
