package io.locus.gluster.virtcache.hotblock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.fixture.GlusterVolume;
import io.locus.gluster.fixture.Statedump;
import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.virtcache.BuiltTranslator;
import io.locus.gluster.virtcache.detector.LoadSampler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * The {@code virtcache} translator built by this module, loaded into a real brick above posix: its counts, its
 * filter, its options applied live, and its answers to hostile xattr names and values. The last test reads the brick
 * log for a crash. Each test uses its own file and sets the options it depends on, so the order of the others does
 * not matter.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class VirtCacheTranslatorIT {
    static final Path LIBRARY = BuiltTranslator.library();
    static final String OPT = "user.xlator.virtcache.";
    static final int ENODATA = 61;
    static final int EPERM = 1;
    static final int KIB = 1024;
    static final String DUMP_PRIV = "xlator.user/virtcache.priv";
    static final String DUMP_FILE = "xlator.user/virtcache.file";
    static final Path DUMPS = Path.of("target", "gluster-it", "statedumps").toAbsolutePath();
    static final Pattern GFID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    private static GlusterVolume volume;
    private static io.locus.gluster.gfapi.GlusterVolume client;
    private static long brickPid;
    private static int dumps;

    @BeforeAll
    static void startVolume() throws Exception {
        volume = GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vc")
                .userTranslator(UserTranslator.abovePosix("virtcache", LIBRARY))
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
    void translatorSitsAbovePosix_andLogsItsConfiguration() throws IOException {
        String volfile = volume.brickVolfile(0);
        assertTrue(
                Pattern.compile("volume locus-vc-virtcache\\s+type user/virtcache\\s+(?:option .*\\s+)*"
                                + "subvolumes locus-vc-posix\\s+end-volume")
                        .matcher(volfile)
                        .find(),
                volfile);
        assertTrue(brickLog().contains("virtcache loaded: block-size=65536 window=600s"), "brick log: " + brickLog());
        String probe = "/loaded.bin";
        writeFile(probe, new byte[1]);
        TranslatorStats s = stats(probe);
        assertEquals("0", s.get("config_count_writes"), "the option given at volume start applies: " + s);
        assertEquals(0, s.number("brick_config_errors"), s.toString());
    }

    @Test
    @Order(2)
    void countsEqualTheReadsIssued() throws Exception {
        String path = "/counts.bin";
        freshWindow(path, 4 << 20);
        TranslatorStats before = stats(path);
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; i < 5; i++) {
                f.read(3 * 65536 + 100, 10);
            }
            f.read(10 * 65536, 4 * KIB);
            // 128 KiB from the middle of block 20: blocks 20, 21 and 22.
            f.read(20 * 65536 + 32 * KIB, 128 * KIB);
            f.read(20 * 65536 + 32 * KIB, 128 * KIB);
        }
        TranslatorStats s = stats(path);
        assertEquals(8, s.windowReads(), s.toString());
        assertEquals(0, s.number("window_writes"), "count-writes off: " + s);
        assertEquals(5, s.countOf(3), s.toString());
        assertEquals(1, s.countOf(10), s.toString());
        assertEquals(2, s.countOf(20), s.toString());
        assertEquals(2, s.countOf(21), s.toString());
        assertEquals(2, s.countOf(22), s.toString());
        assertEquals(5, s.number("window_blocks"), "distinct blocks: " + s);
        assertEquals(new TranslatorStats.BlockCount(3, 5), s.top().get(0), "hottest first: " + s);
        assertEquals(5 * 10 + 4 * KIB + 2 * 128 * KIB, s.number("read_bytes"), s.toString());

        // What the interference detector is fed: every fop is seen and timed, none is left in flight.
        assertEquals(8, s.number("ops") - before.number("ops"), s.toString());
        assertEquals(8, s.number("completed") - before.number("completed"), s.toString());
        assertTrue(s.number("latency_us") > before.number("latency_us"), s.toString());
        assertTrue(s.number("idle_completed") > before.number("idle_completed"), "reads one at a time run idle");
        assertEquals(0, s.number("brick_inflight"), s.toString());
        LoadSampler sampler = new LoadSampler();
        sampler.next(before, 0);
        LoadSampler.Interval interval = sampler.next(s, 0);
        assertTrue(interval.sample().arrivalsPerSecond() > 0, interval.toString());
        assertTrue(interval.sample().deviceSeconds() > 0, interval.toString());
        assertTrue(interval.averageQueueDepth() >= 0 && interval.averageQueueDepth() <= 1, interval.toString());
    }

    @Test
    @Order(3)
    void writesAreCounted_whenCountWritesIsOnLive() throws Exception {
        configure(Map.of("block-size", "65536", "count-writes", "on"), "config_count_writes", "1");
        String path = "/writes.bin";
        writeFile(path, new byte[256 * KIB]);
        rotate(path);
        try (GlusterFile f = client.open(path, true)) {
            f.write(2 * 65536, new byte[100]);
            f.write(2 * 65536 + 200, new byte[100]);
        }
        TranslatorStats s = stats(path);
        assertEquals(2, s.number("window_writes"), s.toString());
        assertEquals(2, s.countOf(2), s.toString());
        configure(Map.of("count-writes", "off"), "config_count_writes", "0");
    }

    @Test
    @Order(4)
    void filterHoldsTheHotBlocks_withinItsFalsePositiveRate() throws Exception {
        configure(
                Map.of("block-size", "65536", "top-n", "200", "bloom-fpr", "0.01", "count-writes", "off"),
                "config_top_n",
                "200");
        String path = "/bloom.bin";
        writeFile(path, new byte[1000 * 65536]);
        rotate(path);
        List<Long> hot = new ArrayList<>();
        List<Long> cold = new ArrayList<>();
        for (long b = 0; b < 1000; b++) {
            (b % 5 == 0 ? hot : cold).add(b);
        }
        try (GlusterFile f = client.open(path, false)) {
            for (int r = 0; r < 3; r++) {
                for (long b : hot) {
                    f.read(b * 65536, 4 * KIB);
                }
            }
            for (long b : cold.subList(0, 400)) {
                f.read(b * 65536, 4 * KIB);
            }
        }
        assertEquals(1000, stats(path).windowReads());
        rotate(path);
        HotBlockFilter filter = HotBlockFilter.read(name -> client.getxattr(path, name));
        assertEquals(200, filter.inserted(), filter.toString());
        assertEquals(65536, filter.blockSize());
        for (long b : hot) {
            assertTrue(filter.mightContain(b), "hot block " + b + " in " + filter);
        }
        double rate = falsePositiveRate(filter);
        assertTrue(rate < 0.015, "false-positive rate " + rate + " for a target of 0.01, " + filter);
        TranslatorStats after = stats(path);
        assertEquals(0, after.windowReads(), "a new window starts empty: " + after);
        assertEquals(filter.epoch(), after.number("bloom_epoch"));

        // An injected 30% rate: the filter still holds every hot block, and is as wrong as asked.
        configure(Map.of("bloom-fpr", "0.3"), "config_bloom_fpr", "0.3");
        try (GlusterFile f = client.open(path, false)) {
            for (long b : hot) {
                f.read(b * 65536, 4 * KIB);
            }
        }
        rotate(path);
        HotBlockFilter loose = HotBlockFilter.read(name -> client.getxattr(path, name));
        for (long b : hot) {
            assertTrue(loose.mightContain(b), "hot block " + b + " in " + loose);
        }
        double looseRate = falsePositiveRate(loose);
        assertTrue(looseRate > 0.2 && looseRate < 0.4, "false-positive rate " + looseRate + " for 0.3, " + loose);
        configure(Map.of("bloom-fpr", "0.01", "top-n", "0"), "config_bloom_fpr", "0.01");
    }

    @Test
    @Order(5)
    void largeFilter_isServedInChunks() throws Exception {
        configure(
                Map.of("block-size", "512", "bloom-fpr", "0.0001", "top-n", "0", "count-writes", "off"),
                "config_block_size",
                "512");
        String path = "/chunks.bin";
        writeFile(path, new byte[16 << 20]);
        rotate(path);
        try (GlusterFile f = client.open(path, false)) {
            for (long off = 0; off < 16 << 20; off += 128 * KIB) {
                f.read(off, 128 * KIB);
            }
        }
        TranslatorStats s = stats(path);
        assertEquals(512, s.blockSize(), s.toString());
        assertEquals(32768, s.number("window_blocks"), s.toString());
        rotate(path);
        HotBlockFilter filter = HotBlockFilter.read(name -> client.getxattr(path, name));
        assertEquals(32768, filter.inserted());
        int chunks = (int) ((filter.bits() / 8 + 61439) / 61440);
        assertTrue(chunks >= 2, "chunks: " + chunks + " for " + filter);
        for (long b = 0; b < 32768; b++) {
            assertTrue(filter.mightContain(b), "block " + b);
        }
        GlusterException past =
                assertThrows(GlusterException.class, () -> client.getxattr(path, HotBlockFilter.chunkName(chunks)));
        assertEquals(ENODATA, past.errno(), past.getMessage());
        configure(Map.of("block-size", "65536", "bloom-fpr", "0.01"), "config_block_size", "65536");
    }

    @Test
    @Order(6)
    void beforeTheFirstWindowEnds_theFilterIsEmpty() throws Exception {
        String path = "/fresh.bin";
        writeFile(path, new byte[64 * KIB]);
        HotBlockFilter filter = HotBlockFilter.read(name -> client.getxattr(path, name));
        assertEquals(0, filter.epoch());
        assertEquals(0, filter.inserted());
        assertFalse(filter.mightContain(0));
        String state = new String(client.getxattr(path, "trusted.virtcache.state"), StandardCharsets.UTF_8);
        assertTrue(state.startsWith("state=normal\n"), state);
    }

    @Test
    @Order(7)
    void hostileNamesAndValues_areRefused_andTheBrickServesOn() throws Exception {
        String path = "/hostile.bin";
        byte[] data = new byte[256 * KIB];
        new Random(7).nextBytes(data);
        writeFile(path, data);
        List<String> absent = new ArrayList<>(List.of(
                "trusted.virtcache.",
                "trusted.virtcache.nosuch",
                "trusted.virtcache.bloom.",
                "trusted.virtcache.bloom.01",
                "trusted.virtcache.bloom.-1",
                "trusted.virtcache.bloom.1x",
                "trusted.virtcache.bloom..1",
                "trusted.virtcache.bloom.2147483647",
                "trusted.virtcache.bloom.2147483648",
                "trusted.virtcache.bloom.99999999999999999999999999999",
                "trusted.virtcache.statsX",
                "trusted.virtcache.rotate",
                "trusted.virtcache." + "x".repeat(200)));
        for (String name : absent) {
            GlusterException e = assertThrows(GlusterException.class, () -> client.getxattr(path, name), name);
            assertEquals(ENODATA, e.errno(), name + ": " + e.getMessage());
        }
        // Names longer than the 255 bytes Linux allows never reach the brick, or are refused there.
        for (String name :
                List.of("trusted.virtcache.bloom." + "1".repeat(300), "trusted.virtcache." + "y".repeat(5000))) {
            assertThrows(GlusterException.class, () -> client.getxattr(path, name), name.substring(0, 40));
        }
        // Values the translator serves cannot be planted, whatever their size.
        for (String name : List.of(
                "trusted.virtcache.stats",
                "trusted.virtcache.bloom",
                "trusted.virtcache.bloom.1",
                "trusted.virtcache.state",
                "trusted.virtcache.nosuch")) {
            for (int size : new int[] {0, 1, 64 * KIB - 1}) {
                GlusterException e =
                        assertThrows(GlusterException.class, () -> client.setxattr(path, name, new byte[size]), name);
                assertEquals(EPERM, e.errno(), name + " size " + size + ": " + e.getMessage());
            }
        }
        try (GlusterFile f = client.open(path, true)) {
            // A buffer too small for the value: ERANGE, and the full value is still served to the next caller.
            GlusterException small = assertThrows(GlusterException.class, () -> f.getxattr(TranslatorStats.XATTR, 8));
            assertEquals(GlusterException.ERANGE, small.errno(), small.getMessage());
            assertTrue(TranslatorStats.parse(f.getxattr(TranslatorStats.XATTR))
                    .asMap()
                    .containsKey("reads"));
            for (String name : List.of("trusted.virtcache.stats", "trusted.virtcache.bloom", "trusted.virtcache.x")) {
                GlusterException e = assertThrows(GlusterException.class, () -> f.removexattr(name), name);
                assertEquals(EPERM, e.errno(), name + ": " + e.getMessage());
                GlusterException set =
                        assertThrows(GlusterException.class, () -> f.setxattr(name, new byte[4096]), name);
                assertEquals(EPERM, set.errno(), name + ": " + set.getMessage());
            }
        }
        // Not a regular file: no stats.
        GlusterException dir = assertThrows(GlusterException.class, () -> client.getxattr("/", TranslatorStats.XATTR));
        assertEquals(ENODATA, dir.errno(), dir.getMessage());
        // An offset near 2^63 is counted as a block far away, and reads nothing.
        try (GlusterFile f = client.open(path, false)) {
            assertEquals(0, f.read(Long.MAX_VALUE - 4096, 4096).length);
        }
        // Other xattrs pass through to the brick as before.
        client.setxattr(path, "user.locus", "kept".getBytes(StandardCharsets.UTF_8));
        assertEquals("kept", new String(client.getxattr(path, "user.locus"), StandardCharsets.UTF_8));
        try (GlusterFile f = client.open(path, false)) {
            assertTrue(Arrays.equals(data, f.read(0, data.length + 1)), "file bytes unchanged");
        }
        assertEquals(brickPid, volume.brickPids().get(0), "the brick process is the one started");
    }

    @Test
    @Order(7)
    void detectorRunsOnTheBrick_andAtLowLoadReportsNormal() throws Exception {
        configure(Map.of("detector-interval", "50", "detector-samples", "4"), "config_detector_samples", "4");
        String path = "/detector.bin";
        writeFile(path, new byte[256 * KIB]);
        Map<String, String> state = state(path);
        long evaluationsBefore = Long.parseLong(state.get("evaluations"));
        // One read at a time: the brick's queue never holds more than this client's one fop, so every sample is a
        // low-load sample and the recent p90 is the low-load p90.
        long deadline = System.nanoTime() + 60_000_000_000L;
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; Long.parseLong(state.get("evaluations")) < evaluationsBefore + 3; i++) {
                assertTrue(System.nanoTime() < deadline, "no 3 evaluations within 60 s: " + state);
                f.read((i % 4) * 65536L, 4 * KIB);
                Thread.sleep(5);
                state = state(path);
            }
        }
        assertEquals("normal", state.get("state"), state.toString());
        assertEquals("queueing-model", state.get("detector"), state.toString());
        assertEquals("0", state.get("violations"), state.toString());
        assertTrue(Long.parseLong(state.get("low_load_samples")) > 0, state.toString());
        assertTrue(Double.parseDouble(state.get("device_us")) > 0, "service time measured: " + state);
        assertEquals(state.get("p90_us"), state.get("low_load_p90_us"), state.toString());
        configure(Map.of("detector-interval", "1000", "detector-samples", "30"), "config_detector_samples", "30");
    }

    @Test
    @Order(8)
    void invalidOptionValue_isRefusedLive_andTheOldConfigurationStays() throws Exception {
        configure(Map.of("bloom-fpr", "0.01"), "config_bloom_fpr", "0.01");
        String probe = "/config-probe.bin";
        long errors = stats(probe).number("brick_config_errors");
        volume.set(OPT + "bloom-fpr", "7");
        long deadline = System.nanoTime() + 30_000_000_000L;
        TranslatorStats s = stats(probe);
        while (s.number("brick_config_errors") == errors && System.nanoTime() < deadline) {
            Thread.sleep(100);
            s = stats(probe);
        }
        assertEquals(errors + 1, s.number("brick_config_errors"), "the brick saw and refused the value: " + s);
        assertEquals("0.01", s.get("config_bloom_fpr"), s.toString());
        assertEquals(brickPid, volume.brickPids().get(0), "the brick process is the one started");
        configure(Map.of("bloom-fpr", "0.01"), "config_bloom_fpr", "0.01");
    }

    /**
     * A brick killed with SIGKILL mid-window, so that only the periodic save counts, comes back with the file's counts,
     * its window and its filter as last saved, and counting goes on from them.
     */
    @Test
    @Order(9)
    void countsAndFilter_surviveABrickKilledMidWindow() throws Exception {
        configure(
                Map.of("block-size", "65536", "count-writes", "off", "top-n", "0", "state-interval", "1"),
                "config_state_interval_s",
                "1");
        String path = "/restart.bin";
        writeFile(path, new byte[1 << 20]);
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; i < 5; i++) {
                f.read(3 * 65536L, 4 * KIB);
            }
            f.read(7 * 65536L, 4 * KIB);
            rotate(path);
            for (int i = 0; i < 4; i++) {
                f.read(3 * 65536L, 4 * KIB);
            }
            f.read(9 * 65536L, 4 * KIB);
        }
        TranslatorStats before = stats(path);
        HotBlockFilter filterBefore = HotBlockFilter.read(name -> client.getxattr(path, name));
        byte[] servedBefore = client.getxattr(path, HotBlockFilter.XATTR);
        assertEquals(5, before.windowReads(), before.toString());
        assertEquals(2, filterBefore.inserted(), filterBefore.toString());
        awaitSaveAfter(before);

        restartBrickByKill();
        TranslatorStats after = awaitStats(path);
        assertEquals(1, after.number("brick_restored_files"), "the one file used since the restart: " + after);
        assertEquals(0, after.number("brick_state_errors"), after.toString());
        for (String key : List.of(
                "epoch", "window_start_ms", "reads", "read_bytes", "window_reads", "window_blocks", "block_size")) {
            assertEquals(before.get(key), after.get(key), key + " before: " + before + "\nafter: " + after);
        }
        assertEquals(4, after.countOf(3), after.toString());
        assertEquals(1, after.countOf(9), after.toString());
        HotBlockFilter filterAfter = HotBlockFilter.read(name -> client.getxattr(path, name));
        assertArrayEquals(servedBefore, client.getxattr(path, HotBlockFilter.XATTR), "the filter, byte for byte");
        assertTrue(filterAfter.mightContain(3) && filterAfter.mightContain(7), filterAfter.toString());

        try (GlusterFile f = client.open(path, false)) {
            f.read(3 * 65536L, 4 * KIB);
        }
        TranslatorStats next = stats(path);
        assertEquals(6, next.windowReads(), "counting goes on in the same window: " + next);
        assertEquals(5, next.countOf(3), next.toString());
        assertEquals(before.reads() + 1, next.reads(), next.toString());
        rotate(path);
        HotBlockFilter rebuilt = HotBlockFilter.read(name -> client.getxattr(path, name));
        assertEquals(filterBefore.epoch() + 1, rebuilt.epoch(), rebuilt.toString());
        assertEquals(2, rebuilt.inserted(), "blocks 3 and 9 of the window the restart went through: " + rebuilt);
        assertTrue(rebuilt.mightContain(3) && rebuilt.mightContain(9), rebuilt.toString());
    }

    /** A truncated state file: the brick logs it, sets it aside, serves, and counts afresh; the next save is whole. */
    @Test
    @Order(10)
    void truncatedStateFile_isSetAside_andCountingStartsAfresh() throws Exception {
        configure(Map.of("state-interval", "1"), "config_state_interval_s", "1");
        String path = "/afresh.bin";
        writeFile(path, new byte[1 << 20]);
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; i < 3; i++) {
                f.read(5 * 65536L, 4 * KIB);
            }
        }
        awaitSaveAfter(stats(path));
        Path state = volume.bricks().get(0).resolve(".glusterfs/virtcache.state");
        Path setAside = volume.bricks().get(0).resolve(".glusterfs/virtcache.state.bad");

        volume.killBrick(0);
        byte[] saved = Files.readAllBytes(state);
        Files.write(state, Arrays.copyOf(saved, saved.length - 7));
        restartBrick();
        TranslatorStats after = awaitStats(path);
        assertEquals(0, after.windowReads(), "counting starts afresh: " + after);
        assertEquals(0, after.countOf(5), after.toString());
        assertEquals(1, after.number("brick_state_errors"), after.toString());
        assertEquals(0, after.number("brick_restored_files"), after.toString());
        assertTrue(
                brickLog().contains("virtcache saved state " + state + " is unusable ("), "brick log: " + brickLog());
        assertEquals(saved.length - 7, Files.size(setAside), "the unusable file is kept aside");

        try (GlusterFile f = client.open(path, false)) {
            f.read(5 * 65536L, 4 * KIB);
        }
        TranslatorStats counted = stats(path);
        assertEquals(1, counted.countOf(5), counted.toString());
        awaitSaveAfter(counted);
        assertEquals(1, stats(path).number("brick_state_errors"), "the new save is whole");
    }

    /**
     * Waits until a save begun after {@code seen} was read has ended: two more saves than {@code seen} counts, as the
     * first may have begun before.
     */
    private static void awaitSaveAfter(TranslatorStats seen) throws Exception {
        long target = seen.number("brick_state_saves") + 2;
        long deadline = System.nanoTime() + 60_000_000_000L;
        TranslatorStats s = stats("/config-probe.bin");
        while (s.number("brick_state_saves") < target) {
            assertTrue(System.nanoTime() < deadline, "no save within 60 s: " + s);
            Thread.sleep(100);
            s = stats("/config-probe.bin");
        }
    }

    /** Kills the brick with SIGKILL and starts it again; the new process is the one the last test checks. */
    private static void restartBrickByKill() {
        volume.killBrick(0);
        restartBrick();
    }

    private static void restartBrick() {
        volume.restartBricks();
        long pid = volume.brickPids().get(0);
        assertTrue(pid > 0 && pid != brickPid, "a new brick process: " + pid + " (was " + brickPid + ")");
        brickPid = pid;
    }

    /** The file's stats once the client has reconnected to the restarted brick. */
    private static TranslatorStats awaitStats(String path) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            try {
                return stats(path);
            } catch (GlusterException e) {
                if (e.errno() != GlusterException.ENOTCONN || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    /** The translator's sections in {@code gluster volume statedump}, read from the dump file as an operator would. */
    @Test
    @Order(11)
    void statedumpFileSection_countsTheReadsIssued_andFollowsTheWindow() throws Exception {
        String path = "/dumped.bin";
        freshWindow(path, 1 << 20);
        try (GlusterFile f = client.open(path, false)) {
            for (int i = 0; i < 4; i++) {
                f.read(2 * 65536L + 10, 100);
            }
            // 10,000 bytes across the end of block 5: blocks 5 and 6.
            f.read(6 * 65536L - 5000, 10_000);
            f.read(9 * 65536L, 4 * KIB);
        }

        Statedump.Section s = fileSection(statedump(), path);
        String gfid = s.get("gfid");
        assertTrue(GFID.matcher(gfid).matches(), s.toString());
        Path brick = volume.bricks().get(0);
        assertTrue(
                Files.isSameFile(
                        brick.resolve(path.substring(1)),
                        brick.resolve(".glusterfs/" + gfid.substring(0, 2) + "/" + gfid.substring(2, 4) + "/" + gfid)),
                "the dumped gfid is the brick file's: " + s);
        assertEquals(65536, s.number("block_size"), s.toString());
        assertEquals(6, s.number("reads"), s.toString());
        assertEquals(6, s.number("window_reads"), s.toString());
        assertEquals(0, s.number("writes"), "count-writes off: " + s);
        assertEquals(4 * 100 + 10_000 + 4 * KIB, s.number("read_bytes"), s.toString());
        assertEquals(4, s.number("window_blocks"), "blocks 2, 5, 6 and 9: " + s);
        assertEquals("2:4,5:1,6:1,9:1", s.get("top"), s.toString());
        assertEquals(1, s.number("epoch"), "the window ended after the file was written: " + s);
        assertEquals(0, s.number("bloom_n"), "the written window counted nothing: " + s);
        assertEquals("yes", s.get("saved"), s.toString());
        assertEquals("normal", s.get("state"), s.toString());

        // The window ends: its four blocks go into the filter, the new window starts empty, the totals stay.
        rotate(path);
        try (GlusterFile f = client.open(path, false)) {
            f.read(9 * 65536L, 4 * KIB);
        }
        Statedump.Section after = fileSection(statedump(), path);
        assertEquals(gfid, after.get("gfid"));
        assertEquals(2, after.number("epoch"), after.toString());
        assertEquals(2, after.number("bloom_epoch"), after.toString());
        assertEquals(4, after.number("bloom_n"), after.toString());
        assertTrue(after.number("bloom_m_bits") > 0 && after.number("bloom_k") > 0, after.toString());
        assertEquals(7, after.number("reads"), after.toString());
        assertEquals(1, after.number("window_reads"), after.toString());
        assertEquals("9:1", after.get("top"), after.toString());
    }

    @Test
    @Order(12)
    void statedumpPrivSection_showsTheOptionsInForce_andWhatTheStatsShow() throws Exception {
        configure(Map.of("window", "120", "block-size", "131072"), "config_window_s", "120");
        configure(Map.of("block-size", "131072"), "config_block_size", "131072");
        TranslatorStats s = stats("/config-probe.bin");
        List<Statedump.Section> sections = statedump().sections(DUMP_PRIV);
        assertEquals(1, sections.size(), "one [" + DUMP_PRIV + "] section: " + sections);
        Statedump.Section p = sections.get(0);
        assertEquals("locus-vc-virtcache", p.get("xlator"), p.toString());
        assertEquals(120, p.number("window_s"), p.toString());
        assertEquals(131072, p.number("block_size"), p.toString());
        assertEquals("off", p.get("count_writes"), p.toString());
        for (String key : List.of("top_n", "max_files", "memory_limit", "state_interval_s", "detector_samples")) {
            assertEquals(s.get("config_" + key), p.get(key), key + " in " + p + "\nstats: " + s);
        }
        for (String key : List.of("state_errors", "restored_files", "config_errors", "untracked_files")) {
            assertEquals(s.get("brick_" + key), p.get(key), key + " in " + p + "\nstats: " + s);
        }
        assertEquals(
                volume.bricks().get(0).resolve(".glusterfs/virtcache.state").toString(),
                p.get("state_file"),
                p.toString());
        assertTrue(p.number("files") >= 1, "the probe is tracked: " + p);
        assertTrue(p.number("memory_bytes") > 0, p.toString());
        assertEquals(0, p.number("inflight"), "no fop runs: " + p);
        configure(Map.of("window", "600", "block-size", "65536"), "config_block_size", "65536");
    }

    @Test
    @Order(13)
    void statedumpsWhileReadsRun_completeAndTheBrickServesOn() throws Exception {
        configure(Map.of("block-size", "65536", "count-writes", "off"), "config_block_size", "65536");
        String path = "/busy.bin";
        writeFile(path, new byte[1 << 20]);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (GlusterFile f = client.open(path, false)) {
                while (!stop.get()) {
                    f.read((reads.get() % 16) * 65536, 4 * KIB);
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
                assertEquals(1, d.sections(DUMP_PRIV).size(), "one priv section per dump: " + d.file());
                assertFalse(d.sections(DUMP_FILE).isEmpty(), "file sections in " + d.file());
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
        List<Statedump.Section> matching = d.sections(DUMP_FILE).stream()
                .filter(s -> path.equals(s.values().get("path")))
                .toList();
        assertEquals(1, matching.size(), "one [" + DUMP_FILE + "] section with path=" + path + " in " + d.file());
        return matching.get(0);
    }

    @Test
    @Order(100)
    void brickLog_showsNoCrash() throws IOException {
        String log = brickLog();
        for (String crash : List.of("signal received", "pending frames", "Assertion failed", "stack smashing")) {
            assertFalse(log.contains(crash), "brick log shows a crash (\"" + crash + "\"):\n" + log);
        }
        assertEquals(brickPid, volume.brickPids().get(0), "the brick process is the one started");
    }

    /**
     * Writes a file of zeros with 64 KiB blocks and {@code count-writes off} in force, then ends its window: the next
     * window counts only what the test reads.
     */
    private static void freshWindow(String path, int bytes) throws Exception {
        configure(Map.of("block-size", "65536", "count-writes", "off"), "config_block_size", "65536");
        writeFile(path, new byte[bytes]);
        rotate(path);
    }

    /** Sets translator options and waits until the brick has applied them (its stats show {@code key=value}). */
    private static void configure(Map<String, String> options, String key, String value) throws Exception {
        for (Map.Entry<String, String> e : new LinkedHashMap<>(options).entrySet()) {
            volume.set(OPT + e.getKey(), e.getValue());
        }
        String probe = "/config-probe.bin";
        writeFile(probe, new byte[1]);
        long deadline = System.nanoTime() + 30_000_000_000L;
        TranslatorStats s = stats(probe);
        while (!value.equals(s.get(key))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "brick did not apply " + options + " within 30 s (expected " + key + "=" + value + "): " + s);
            }
            Thread.sleep(100);
            s = stats(probe);
        }
    }

    private static void writeFile(String path, byte[] data) throws GlusterException {
        try (GlusterFile f = client.create(path)) {
            f.write(0, data);
        }
    }

    private static Map<String, String> state(String path) throws GlusterException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line :
                new String(client.getxattr(path, "trusted.virtcache.state"), StandardCharsets.UTF_8).split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    private static TranslatorStats stats(String path) throws GlusterException {
        return TranslatorStats.parse(client.getxattr(path, TranslatorStats.XATTR));
    }

    /** Ends the file's window at once; the next one counts with the options now in force. */
    private static void rotate(String path) throws GlusterException {
        client.setxattr(path, "trusted.virtcache.rotate", new byte[] {'1'});
    }

    /** The share of 100,000 blocks that were never read but which the filter claims. */
    private static double falsePositiveRate(HotBlockFilter filter) {
        int fp = 0;
        for (long b = 1_000_000; b < 1_100_000; b++) {
            fp += filter.mightContain(b) ? 1 : 0;
        }
        return fp / 100_000.0;
    }

    private static String brickLog() throws IOException {
        String brick = volume.bricks().get(0).toString().substring(1).replace('/', '-');
        Path dir = Path.of("/var/log/glusterfs/bricks");
        try (Stream<Path> s = Files.list(dir)) {
            Path log = s.filter(p -> p.getFileName().toString().startsWith(brick))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no log of brick " + brick + " in " + dir));
            return Files.readString(log, StandardCharsets.ISO_8859_1);
        }
    }
}
