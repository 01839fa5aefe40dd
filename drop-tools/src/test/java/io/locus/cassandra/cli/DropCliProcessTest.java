package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.cassandra.TestNamespace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** With {@code --json}, stdout of the CLI's own JVM is one JSON document and nothing else, on success and failure. */
class DropCliProcessTest {
    private static Path keys;

    @BeforeAll
    static void writeKeys() throws IOException {
        keys = Path.of("target", "cli-process-keys.txt");
        Files.write(keys, TestNamespace.paths().subList(0, 5_000), StandardCharsets.UTF_8);
    }

    @Test
    void plan_and_evaluate_json_successes_printOnlyJson() throws Exception {
        CliProcess.Result plan = CliProcess.run("plan", "--keys", keys.toString(), "--nodes", "3", "--json");
        assertEquals(0, plan.exit(), plan.stderr());
        JsonNode p = plan.json();
        assertEquals(3, p.get("nodes").size());
        assertEquals(0.05, p.get("reservedShare").asDouble());
        assertEquals("estimate", p.get("reservedShareFrom").asText());
        JsonNode owners = p.get("datacenters").get(0).get("reservedRegionOwners");
        assertEquals(1, owners.size(), owners.toString());
        assertEquals(2, owners.get(0).get("node").asInt(), "the last node, not node 0, holds the reserved region");

        CliProcess.Result eval = CliProcess.run("evaluate", "--keys", keys.toString(), "--nodes", "3", "--json");
        assertEquals(0, eval.exit(), eval.stderr());
        JsonNode e = eval.json();
        assertEquals(5, e.get("schemes").size());
        assertEquals(2, e.get("reservedRegion").get("owners").get(0).get("node").asInt());
    }

    @Test
    void json_failures_printOneErrorDocument() throws Exception {
        CliProcess.Result missing =
                CliProcess.run("plan", "--keys", "target/no-such-file.txt", "--nodes", "2", "--json");
        assertEquals(1, missing.exit());
        assertEquals(1, missing.json().get("exitCode").asInt());
        assertTrue(missing.json().get("error").asText().contains("no-such-file.txt"), missing.stdout());

        CliProcess.Result bad =
                CliProcess.run("plan", "--keys", keys.toString(), "--nodes", "2", "--reserved-share", "1.5", "--json");
        assertEquals(2, bad.exit());
        assertEquals(
                "--reserved-share 1.5 (expected: a fraction within [0, 1), e.g. 0.05)",
                bad.json().get("error").asText());

        CliProcess.Result unknown = CliProcess.run("evaluate", "--frobnicate", "--json");
        assertEquals(2, unknown.exit());
        assertEquals(2, unknown.json().get("exitCode").asInt());
    }

    @Test
    void rebalance_json_againstAnUnreachableContact_printsOnlyTheError_andLogsStayOffStdout() throws Exception {
        CliProcess.Result r =
                CliProcess.run("rebalance", "--contact", "127.0.0.1:1", "--keyspace", "fs", "--table", "t", "--json");
        assertEquals(1, r.exit(), r.stderr());
        assertTrue(r.json().get("error").asText().contains("127.0.0.1:1"), r.stdout());
        assertTrue(r.stderr().lines().count() < 20, "stderr at WARN stays short:\n" + r.stderr());
        assertTrue(!r.stderr().contains("DEBUG"), r.stderr());
    }
}
