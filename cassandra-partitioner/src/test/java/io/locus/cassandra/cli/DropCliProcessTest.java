package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.locus.cassandra.TestNamespace;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CLI as an operator runs it: a fresh JVM with the module's class path (Cassandra, the driver and logback on it, no
 * test logging configuration), stdout and stderr captured apart. With {@code --json}, stdout must be one JSON document
 * and nothing else, on success and on failure.
 */
class DropCliProcessTest {
    private static final ObjectReader STRICT =
            new ObjectMapper().readerFor(JsonNode.class).with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    private static Path keys;

    @BeforeAll
    static void writeKeys() throws IOException {
        keys = Path.of("target", "cli-process-keys.txt");
        Files.write(keys, TestNamespace.paths().subList(0, 5_000), StandardCharsets.UTF_8);
    }

    /** Runs the CLI in its own JVM; returns exit code, stdout and stderr. */
    static Result cli(String... args) throws IOException, InterruptedException {
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

    record Result(int exit, String stdout, String stderr) {
        JsonNode json() throws IOException {
            try {
                return STRICT.readValue(stdout);
            } catch (IOException e) {
                throw new AssertionError("stdout is not one JSON document: " + e.getMessage() + "\n" + stdout, e);
            }
        }
    }

    @Test
    void plan_and_evaluate_json_successes_printOnlyJson() throws Exception {
        Result plan = cli("plan", "--keys", keys.toString(), "--nodes", "3", "--json");
        assertEquals(0, plan.exit(), plan.stderr());
        JsonNode p = plan.json();
        assertEquals(3, p.get("nodes").size());
        assertEquals(0.05, p.get("reservedShare").asDouble());
        assertEquals("estimate", p.get("reservedShareFrom").asText());
        JsonNode owners = p.get("datacenters").get(0).get("reservedRegionOwners");
        assertEquals(1, owners.size(), owners.toString());
        assertEquals(2, owners.get(0).get("node").asInt(), "the last node, not node 0, holds the reserved region");

        Result eval = cli("evaluate", "--keys", keys.toString(), "--nodes", "3", "--json");
        assertEquals(0, eval.exit(), eval.stderr());
        JsonNode e = eval.json();
        assertEquals(5, e.get("schemes").size());
        assertEquals(2, e.get("reservedRegion").get("owners").get(0).get("node").asInt());
    }

    @Test
    void json_failures_printOneErrorDocument() throws Exception {
        Result missing = cli("plan", "--keys", "target/no-such-file.txt", "--nodes", "2", "--json");
        assertEquals(1, missing.exit());
        assertEquals(1, missing.json().get("exitCode").asInt());
        assertTrue(missing.json().get("error").asText().contains("no-such-file.txt"), missing.stdout());

        Result bad = cli("plan", "--keys", keys.toString(), "--nodes", "2", "--reserved-share", "1.5", "--json");
        assertEquals(2, bad.exit());
        assertEquals(
                "--reserved-share 1.5 (expected: a fraction within [0, 1), e.g. 0.05)",
                bad.json().get("error").asText());

        Result unknown = cli("evaluate", "--frobnicate", "--json");
        assertEquals(2, unknown.exit());
        assertEquals(2, unknown.json().get("exitCode").asInt());
    }

    @Test
    void rebalance_json_againstAnUnreachableContact_printsOnlyTheError_andLogsStayOffStdout() throws Exception {
        Result r = cli("rebalance", "--contact", "127.0.0.1:1", "--keyspace", "fs", "--table", "t", "--json");
        assertEquals(1, r.exit(), r.stderr());
        assertTrue(r.json().get("error").asText().contains("127.0.0.1:1"), r.stdout());
        assertTrue(r.stderr().lines().count() < 20, "stderr at WARN stays short:\n" + r.stderr());
        assertTrue(!r.stderr().contains("DEBUG"), r.stderr());
    }
}
