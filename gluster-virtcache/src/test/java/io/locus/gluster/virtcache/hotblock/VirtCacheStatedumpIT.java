package io.locus.gluster.virtcache.hotblock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.fixture.GlusterVolume;
import io.locus.gluster.fixture.Statedump;
import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The translator's sections in {@code gluster volume statedump}, read as an operator would: the fixture runs the
 * gluster CLI with the volume's statedump path under target/, and each test reads the dump files its own call wrote.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtCacheStatedumpIT {
    static final String OPT = "user.xlator.virtcache.";
    static final String PRIV = "xlator.user/virtcache.priv";
    static final String FILE = "xlator.user/virtcache.file";
    static final int BLOCK = 65536;
    static final Path DUMPS = Path.of("target", "gluster-it", "statedumps").toAbsolutePath();
    static final Pattern GFID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static GlusterVolume volume;
    private static io.locus.gluster.gfapi.GlusterVolume client;
    private static long brickPid;
    private static int dumps;

    @BeforeAll
    static void startVolume() throws Exception {
        volume = GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vcdump")
                .userTranslator(UserTranslator.abovePosix("virtcache", VirtCacheTranslatorIT.LIBRARY))
                .option(OPT + "count-writes", "off")
                .start();
        client = io.locus.gluster.gfapi.GlusterVolume.connect(volume.server(), volume.name(), volume.gfapiLog());
        brickPid = volume.brickPids().get(0);
        if (Files.exists(DUMPS)) {
            try (Stream<Path> s = Files.walk(DUMPS)) {
                for (Path old : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(old);
                }
            }
        }
    }

    @AfterAll
    static void stopVolume() {
        if (client != null) {
            client.close();
        }
        if (volume != null) {
            volume.close();
        }
    }

    @Test
    @Order(1)
    void fileSection_countsTheReadsIssued_andFollowsTheWindow() throws Exception {
        String path = "/dumped.bin";
        writeFile(path, new byte[1 << 20]);
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; i < 4; i++) {
                f.read(2 * BLOCK + 10, 100);
            }
            // 10,000 bytes across the end of block 5: blocks 5 and 6.
            f.read(6 * BLOCK - 5000, 10_000);
            f.read(9 * BLOCK, 4096);
        }

        Statedump.Section s = fileSection(statedump(), path);
        assertTrue(GFID.matcher(s.get("gfid")).matches(), s.toString());
        Path brick = volume.bricks().get(0);
        String gfid = s.get("gfid");
        assertTrue(
                Files.isSameFile(
                        brick.resolve(path.substring(1)),
                        brick.resolve(".glusterfs/" + gfid.substring(0, 2) + "/" + gfid.substring(2, 4) + "/" + gfid)),
                "the dumped gfid is the brick file's: " + s);
        assertEquals(BLOCK, s.number("block_size"), s.toString());
        assertEquals(6, s.number("reads"), s.toString());
        assertEquals(6, s.number("window_reads"), s.toString());
        assertEquals(0, s.number("writes"), "count-writes off: " + s);
        assertEquals(4 * 100 + 10_000 + 4096, s.number("read_bytes"), s.toString());
        assertEquals(4, s.number("window_blocks"), "blocks 2, 5, 6 and 9: " + s);
        assertEquals("2:4,5:1,6:1,9:1", s.get("top"), s.toString());
        assertEquals(0, s.number("epoch"), s.toString());
        assertEquals(0, s.number("bloom_n"), "no window has ended: " + s);
        assertEquals("normal", s.get("state"), s.toString());

        // The window ends: its four blocks go into the filter, the new window starts empty, the totals stay.
        client.setxattr(path, "trusted.virtcache.rotate", new byte[] {'1'});
        try (GlusterFile f = client.open(path, false)) {
            f.read(9 * BLOCK, 4096);
        }
        Statedump.Section after = fileSection(statedump(), path);
        assertEquals(gfid, after.get("gfid"));
        assertEquals(1, after.number("epoch"), after.toString());
        assertEquals(1, after.number("bloom_epoch"), after.toString());
        assertEquals(4, after.number("bloom_n"), after.toString());
        assertTrue(after.number("bloom_m_bits") > 0 && after.number("bloom_k") > 0, after.toString());
        assertEquals(7, after.number("reads"), after.toString());
        assertEquals(1, after.number("window_reads"), after.toString());
        assertEquals("9:1", after.get("top"), after.toString());
    }

    @Test
    @Order(2)
    void privSection_showsTheOptionsInForce_andTheStateFile() throws Exception {
        volume.set(OPT + "window", "120");
        volume.set(OPT + "block-size", "131072");
        Statedump.Section p = awaitPriv("window_s", "120");
        assertEquals("locus-vcdump-virtcache", p.get("xlator"), p.toString());
        assertEquals(131072, p.number("block_size"), p.toString());
        assertEquals("off", p.get("count_writes"), "set at volume start: " + p);
        assertEquals(30, p.number("state_interval_s"), p.toString());
        assertEquals(
                volume.bricks().get(0).resolve(".glusterfs/virtcache.state").toString(),
                p.get("state_file"),
                p.toString());
        assertEquals(0, p.number("state_errors"), p.toString());
        assertEquals(0, p.number("config_errors"), p.toString());
        assertEquals(0, p.number("restored_files"), "a new brick has nothing to restore: " + p);
        assertEquals(0, p.number("untracked_files"), p.toString());
        assertTrue(p.number("files") >= 1, "/dumped.bin is tracked: " + p);
        assertTrue(p.number("memory_bytes") > 0, p.toString());
        assertEquals(0, p.number("inflight"), "no fop runs: " + p);
    }

    @Test
    @Order(3)
    void dumpsWhileReadsRun_completeAndTheBrickServesOn() throws Exception {
        String path = "/busy.bin";
        writeFile(path, new byte[1 << 20]);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (GlusterFile f = client.open(path, false)) {
                while (!stop.get()) {
                    f.read((reads.get() % 16) * 65536, 4096);
                    reads.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        try {
            for (int i = 0; i < 3; i++) {
                Statedump d = statedump();
                assertEquals(1, d.sections(PRIV).size(), "one priv section per dump: " + d.file());
                assertFalse(d.sections(FILE).isEmpty(), "file sections in " + d.file());
            }
        } finally {
            stop.set(true);
            reader.join(30_000);
        }
        assertEquals(null, failure.get(), "reads during dumps");
        assertTrue(reads.get() > 0, "the reader ran");
        Statedump.Section s = fileSection(statedump(), path);
        assertEquals(reads.get(), s.number("reads"), "every read is counted once the reader stopped: " + s);
        assertEquals(brickPid, volume.brickPids().get(0), "the brick process is the one started");
    }

    /** The next statedump of the volume's single brick, into its own directory. */
    private static Statedump statedump() {
        List<Statedump> all = volume.statedump(DUMPS.resolve("dump-" + ++dumps));
        assertEquals(1, all.size(), "one brick, one dump: " + all);
        return all.get(0);
    }

    private static Statedump.Section fileSection(Statedump d, String path) {
        List<Statedump.Section> matching = d.sections(FILE).stream()
                .filter(s -> path.equals(s.values().get("path")))
                .toList();
        assertEquals(1, matching.size(), "one [" + FILE + "] section with path=" + path + " in " + d.file());
        return matching.get(0);
    }

    /** Options apply on the brick shortly after volume set returns. */
    private static Statedump.Section awaitPriv(String key, String value) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            List<Statedump.Section> priv = statedump().sections(PRIV);
            assertEquals(1, priv.size(), "one [" + PRIV + "] section: " + priv);
            if (value.equals(priv.get(0).values().get(key)) || System.nanoTime() > deadline) {
                assertEquals(value, priv.get(0).values().get(key), "applied within 30 s: " + priv.get(0));
                return priv.get(0);
            }
            Thread.sleep(1000);
        }
    }

    private static void writeFile(String path, byte[] data) throws GlusterException {
        try (GlusterFile f = client.create(path)) {
            f.write(0, data);
        }
    }
}
