package io.locus.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import io.locus.cassandra.cli.CliProcess;
import io.locus.cassandra.copy.Murmur3Splits;
import io.locus.cassandra.fixture.CassandraNode;
import io.locus.cassandra.fixture.ForkedCassandraNode;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code locus-drop copy} between two real clusters: a forked Murmur3 node holding a table and this JVM's DROP node
 * (the one {@link DropPartitionerIT} uses): a run stopped after 5 of 16 slices wrote exactly the rows of those slices,
 * a second run resumes from the checkpoint and finishes, and the target then holds every row of the source, value for
 * value, with the tool's count and digest check agreeing. A missing or different target table is refused by name and
 * nothing is written.
 */
class DropCopyIT {
    private static final int PATHS = 1_500;
    private static ForkedCassandraNode source;
    private static CqlSession src;
    private static CqlSession dst;
    private static String from;
    private static String to;

    @BeforeAll
    static void startBoth() {
        source = ForkedCassandraNode.create(
                        CassandraNode.Options.defaults().withDirectory(Path.of("target", "copy-source-node")))
                .start();
        src = source.newSession();
        from = "127.0.0.1:" + source.contactPoint().getPort();
        CassandraNode target = CassandraNode.start(DropPartitionerIT.OPTIONS);
        dst = DropSessions.open(target.contactPoint());
        to = "127.0.0.1:" + target.contactPoint().getPort();

        src.execute("CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        src.execute("CREATE TABLE shop.files (path text, part int, body blob, tags set<text>, size bigint,"
                + " PRIMARY KEY (path, part))");
        PreparedStatement insert =
                src.prepare("INSERT INTO shop.files (path, part, body, tags, size) VALUES (?, ?, ?, ?, ?)");
        for (int i = 0; i < PATHS; i++) {
            String path = "/srv/d" + (i % 40) + "/f" + i;
            for (int part = 0; part < 2; part++) {
                src.execute(insert.bind(
                        path,
                        part,
                        ByteBuffer.wrap(new byte[] {(byte) i, (byte) part}),
                        i % 3 == 0 ? null : Set.of("t" + (i % 7)),
                        i % 5 == 0 ? null : (long) i * 1000 + part));
            }
        }
        dst.execute("CREATE KEYSPACE IF NOT EXISTS copy_it"
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        dst.execute("CREATE TABLE IF NOT EXISTS copy_it.files (path text, part int, body blob, tags set<text>,"
                + " size bigint, PRIMARY KEY (path, part))");
        dst.execute("CREATE TABLE IF NOT EXISTS copy_it.other (path text, part int, body text,"
                + " PRIMARY KEY (path, part))");
        dst.execute("TRUNCATE copy_it.files");
    }

    @AfterAll
    static void stop() {
        if (src != null) {
            src.close();
        }
        if (dst != null) {
            dst.close();
        }
        if (source != null) {
            source.close();
        }
    }

    @Test
    void stoppedAndResumed_theTargetHoldsExactlyTheSourcesRows() throws Exception {
        Path checkpoint = Path.of("target", "copy-it.checkpoint").toAbsolutePath();
        Files.deleteIfExists(checkpoint);
        CliProcess.Result first = copy("copy_it.files", checkpoint, "--max-splits", "5");
        assertEquals(0, first.exit(), first.toString());
        JsonNode r1 = first.json();
        assertEquals(5, r1.get("splitsCopied").asInt(), r1.toString());
        assertEquals(11, r1.get("splitsLeft").asInt(), r1.toString());
        assertTrue(Files.readAllLines(checkpoint).contains("done 0-4"), Files.readString(checkpoint));
        long inFirstFive = src.execute(src.prepare(
                                "SELECT count(*) FROM shop.files WHERE token(path) > ? AND" + " token(path) <= ?")
                        .bind(Long.MIN_VALUE, Murmur3Splits.of(16).get(4).end()))
                .one()
                .getLong(0);
        assertTrue(inFirstFive > 0 && inFirstFive < 2 * PATHS, "rows in the first 5 slices: " + inFirstFive);
        assertEquals(inFirstFive, r1.get("rowsWritten").asLong(), r1.toString());
        assertEquals(inFirstFive, count(dst, "copy_it.files"), "rows on the target after the first run");

        CliProcess.Result second = copy("copy_it.files", checkpoint);
        assertEquals(0, second.exit(), second.toString());
        JsonNode r2 = second.json();
        assertEquals(11, r2.get("splitsCopied").asInt(), r2.toString());
        assertEquals(5, r2.get("splitsDoneBefore").asInt(), r2.toString());
        assertEquals(2 * PATHS - inFirstFive, r2.get("rowsWritten").asLong(), r2.toString());
        assertTrue(r2.get("verified").asBoolean(), r2.toString());
        assertEquals(2 * PATHS, r2.get("targetRows").asLong(), r2.toString());
        assertEquals(r2.get("sourceDigest").asText(), r2.get("targetDigest").asText(), r2.toString());
        assertFalse(Files.exists(checkpoint), "a finished, checked copy removes its checkpoint");
        assertEquals(rows(src, "shop.files"), rows(dst, "copy_it.files"));
    }

    @Test
    void aMissingOrDifferentTarget_isRefusedByName_andNothingIsWritten() throws Exception {
        Path checkpoint = Path.of("target", "copy-it-bad.checkpoint").toAbsolutePath();
        Files.deleteIfExists(checkpoint);
        CliProcess.Result missing = copy("copy_it.nosuch", checkpoint);
        assertEquals(1, missing.exit(), missing.toString());
        assertTrue(
                missing.stderr()
                        .contains(
                                "locus-drop: table copy_it.nosuch does not exist on " + to
                                        + " (create it first, e.g. with the source's definition: CREATE TABLE \"shop\".\"files\""),
                missing.stderr());
        CliProcess.Result different = copy("copy_it.other", checkpoint);
        assertEquals(1, different.exit(), different.toString());
        assertTrue(
                different
                        .stderr()
                        .contains("target " + to + " copy_it.other does not match the source " + from
                                + " shop.files: column body is text, the source's is blob; column size is missing;"
                                + " column tags is missing"),
                different.stderr());
        assertEquals(0, count(dst, "copy_it.other"));
        assertFalse(Files.exists(checkpoint), "nothing was copied, so nothing was recorded");
    }

    private static CliProcess.Result copy(String target, Path checkpoint, String... more) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(
                "copy",
                "--from",
                from,
                "--to",
                to,
                "--table",
                "shop.files",
                "--table",
                target,
                "--splits",
                "16",
                "--checkpoint",
                checkpoint.toString(),
                "--json"));
        args.addAll(List.of(more));
        return CliProcess.run(args.toArray(new String[0]));
    }

    private static long count(CqlSession s, String table) {
        return s.execute("SELECT count(*) FROM " + table).one().getLong(0);
    }

    private static Map<String, String> rows(CqlSession s, String table) {
        Map<String, String> m = new HashMap<>();
        for (Row r : s.execute("SELECT path, part, body, tags, size FROM " + table)) {
            m.put(
                    r.getString(0) + "#" + r.getInt(1),
                    r.getBytesUnsafe(2) + "|" + r.getSet(3, String.class) + "|"
                            + (r.isNull(4) ? "null" : r.getLong(4)));
        }
        return m;
    }
}
