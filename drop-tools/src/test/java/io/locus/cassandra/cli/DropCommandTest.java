package io.locus.cassandra.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.cassandra.TestNamespace;
import io.locus.cassandra.drop.TokenMath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DropCommandTest {
    private static Path keys;

    @BeforeAll
    static void writeKeys() throws IOException {
        keys = Path.of("target", "cli-test-keys.txt");
        Files.write(keys, TestNamespace.paths(), StandardCharsets.UTF_8);
    }

    private static String run(int expectedExit, String... args) {
        PrintStream out = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertEquals(expectedExit, DropCommand.run(args), String.join(" ", args));
        } finally {
            System.setOut(out);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void plan_json_printsOneValidInitialTokenPerNode_andWritesYaml() throws IOException {
        Path yaml = Path.of("target", "cli-test-tokens.yaml");
        String json = run(0, "plan", "--keys", keys.toString(), "--nodes", "16", "--out", yaml.toString(), "--json");
        assertEquals(16, json.split("\"initial_token\":\"", -1).length - 1, json);
        int i = json.indexOf("\"initial_token\":\"") + 17;
        TokenMath.fromHex(json.substring(i, i + 96));
        String y = Files.readString(yaml);
        assertTrue(y.contains("datacenter: datacenter1"), y);
        assertTrue(y.contains("partitioner: io.locus.cassandra.DropPartitioner"), y);
        assertEquals(16, y.split("initial_token: ", -1).length - 1);
    }

    @Test
    void evaluate_text_listsEveryScheme() {
        String table = run(0, "evaluate", "--keys", keys.toString(), "--nodes", "8");
        for (String scheme : new String[] {"DROP", "FileHash (Murmur3)", "DirHash", "Static subtree", "ByteOrdered"}) {
            assertTrue(table.contains(scheme), table);
        }
    }

    @Test
    void badArguments_exitWith2_andAMissingFileWith1() {
        run(2, "plan", "--keys", keys.toString(), "--nodes", "0");
        run(1, "plan", "--keys", "target/does-not-exist.txt", "--nodes", "2");
        run(2, "frobnicate");
        // --execute's options are checked before any connection is made (no cluster listens here).
        run(
                2,
                "rebalance",
                "--contact",
                "127.0.0.1:1",
                "--keyspace",
                "fs",
                "--table",
                "t",
                "--execute",
                "--jmx",
                "127.0.0.2");
        run(
                2,
                "rebalance",
                "--contact",
                "127.0.0.1:1",
                "--keyspace",
                "fs",
                "--table",
                "t",
                "--execute",
                "--jmx-port",
                "0");
        run(2, "rebalance", "--contact", "127.0.0.1:1", "--keyspace", "fs", "--table", "t", "--jmx", "127.0.0.2=7200");
    }

    @Test
    void plan_twoDatacentersWithRacks_printsAYamlSnippetPerNode_withTokensUniqueAcrossThem() throws IOException {
        Path yaml = Path.of("target", "cli-test-dc.yaml");
        String text = run(
                0, "plan", "--keys", keys.toString(), "--dc", "dc1:3,dc2:3", "--racks", "3", "--out", yaml.toString());
        assertEquals(6, text.split("\ninitial_token: ", -1).length - 1, text);
        assertTrue(text.contains("## dc2 / rack3 / node 2"), text);
        assertTrue(text.contains("cassandra-rackdc.properties: dc=dc2 rack=rack3"), text);
        java.util.Set<String> tokens = new java.util.HashSet<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("initial_token: ")) {
                assertTrue(tokens.add(line), "duplicate " + line);
            }
        }
        @SuppressWarnings("unchecked")
        java.util.Map<String, Object> doc = new org.yaml.snakeyaml.Yaml().load(Files.readString(yaml));
        assertEquals(6, ((java.util.List<?>) doc.get("nodes")).size());
        run(2, "plan", "--keys", keys.toString(), "--dc", "dc1:3,dc1:2");
        run(2, "plan", "--keys", keys.toString(), "--dc", "dc1:2", "--racks", "3");
        run(2, "plan", "--keys", keys.toString(), "--dc", "dc1:2", "--nodes", "2");
    }

    @Test
    void plan_fromASyntheticTree_needsNoKeyFile() {
        String json = run(0, "plan", "--fanout", "8", "--depth", "3", "--nodes", "4", "--json");
        assertTrue(json.startsWith("{\"keys\":5264,"), json);
        run(2, "plan", "--nodes", "4");
        run(2, "plan", "--fanout", "1000", "--depth", "4", "--nodes", "4");
        run(2, "plan", "--from-table", "fs.inodes", "--nodes", "4");
    }
}
