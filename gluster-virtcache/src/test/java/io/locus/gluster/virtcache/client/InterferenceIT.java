package io.locus.gluster.virtcache.client;

import static io.locus.gluster.virtcache.client.VirtCacheClientIT.readFile;
import static io.locus.gluster.virtcache.client.VirtCacheClientIT.sha256;
import static io.locus.gluster.virtcache.client.VirtCacheClientIT.writeFile;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.BuiltTranslator;
import io.locus.gluster.virtcache.hotblock.HotBlockFilter;
import io.locus.gluster.virtcache.interference.FioInterferer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * VirtCache under real interference: a competing fio job ({@link FioInterferer}) (libgfapi engine, 64 KiB random reads and writes, direct)
 * on another file of the victim's brick makes the brick's detector report the victim's file {@code interfered}; the
 * victim's client, polling, redirects by itself, serves its hot reads from the log and logs its writes, and once the
 * interferer stops and the brick reports {@code normal} again it drains, after which the disk equals a plain copy of
 * the same writes.
 *
 * <p>The translator sits above {@code io-threads}, so the queue it measures is the brick's own: fops waiting for an
 * I/O thread count as queued, as in the thesis's model of a device's queue. Every wait is on a state, bounded
 * generously for a loaded 2-core machine, and a failure prints what the detector saw. Nothing is timed.
 */
class InterferenceIT {
    static final int B = 65536;
    static final int BLOCKS = 64;
    static final int HOT_BLOCKS = 8;
    static final String VICTIM = "/victim.img";
    static final String INTERFERER = "/interferer.img";
    static final long BOUND_NANOS = 240_000_000_000L;

    private static io.locus.gluster.fixture.GlusterVolume primaryFixture;
    private static io.locus.gluster.fixture.GlusterVolume logFixture;
    private static GlusterVolume primary;
    private static GlusterVolume logVolume;

    private final Random random = new Random(6);
    private final byte[] model = new byte[BLOCKS * B];
    private final List<String> trace = new ArrayList<>();
    private long steps;

    @BeforeAll
    static void startVolumes() throws Exception {
        primaryFixture = io.locus.gluster.fixture.GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vci")
                .userTranslator(new UserTranslator("virtcache", BuiltTranslator.library(), "io-threads"))
                .option("user.xlator.virtcache.count-writes", "off")
                .option("user.xlator.virtcache.detector-interval", "200")
                .option("user.xlator.virtcache.detector-samples", "5")
                // The brick serves a page-cached file with the 2 cores of this machine, not a 16-way array.
                .option("user.xlator.virtcache.detector-parallel-io", "2")
                // The victim alone keeps at most one fop in flight; fio's four jobs keep more.
                .option("user.xlator.virtcache.detector-low-load-depth", "1")
                .start();
        logFixture = io.locus.gluster.fixture.GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vcilog")
                .start();
        primary = GlusterVolume.connect(primaryFixture.server(), primaryFixture.name(), primaryFixture.gfapiLog());
        logVolume = GlusterVolume.connect(logFixture.server(), logFixture.name(), logFixture.gfapiLog());
    }

    @AfterAll
    static void stopVolumes() {
        VirtCacheClientIT.closeAll(primary, logVolume, primaryFixture, logFixture);
    }

    @Test
    void competingFioJob_redirectsHotReadsAndWrites_thenDrainsToAPlainCopy() throws Exception {
        random.nextBytes(model);
        writeFile(primary, VICTIM, model);
        VirtCacheClient client = VirtCacheClient.open(primary, logVolume, VICTIM, B);
        // The policy's rate rule is unit-tested; here any rate counts as calm, so the brick's verdict decides.
        client.setPolicy(new RedirectPolicy(3, 5, 1e9));
        for (int round = 0; round < 3; round++) {
            for (int b = 0; b < HOT_BLOCKS; b++) {
                client.read((long) b * B, 4096);
            }
        }
        primary.setxattr(VICTIM, "trusted.virtcache.rotate", new byte[] {'1'});
        HotBlockFilter hot = client.refreshHotBlocks();
        assertEquals(HOT_BLOCKS, hot.inserted(), hot.toString());

        // Alone: the detector gathers its low-load baseline and the victim stays on its primary.
        awaitWhileRunning(client, "a low-load baseline and two evaluations", () -> {
            String s = state();
            return number(s, "evaluations") >= 2 && number(s, "low_load_samples") >= 5;
        });
        assertEquals(RedirectState.NORMAL, client.state(), "alone, the victim stays on its primary: " + state());
        // The data logger copied each hot block to the log in the background.
        assertTrue(
                client.disk().loggedOnRead() >= HOT_BLOCKS,
                "hot reads copied their blocks to the log: " + client.disk().loggedOnRead());

        long redirectedReads;
        long redirectedWrites;
        try (FioInterferer fio = FioInterferer.start(primaryFixture, INTERFERER, BOUND_NANOS)) {
            assertEquals(primaryFixture.brickOf(VICTIM), primaryFixture.brickOf(INTERFERER), "one brick for both");
            awaitWhileRunning(client, "the redirection under interference", () -> {
                assertTrue(fio.isAlive(), () -> "fio exited: " + fio.logTail());
                return client.state() == RedirectState.REDIRECTED;
            });
            long readsBefore = client.disk().readsFromLog();
            long writesBefore = client.disk().writesToLog();
            byte[] primaryBefore = readFile(primary, VICTIM);
            for (int i = 0; i < 40; i++) {
                victimStep(client);
            }
            redirectedReads = client.disk().readsFromLog() - readsBefore;
            redirectedWrites = client.disk().writesToLog() - writesBefore;
            assertTrue(redirectedReads >= 40, "hot reads served by the log: " + redirectedReads);
            assertTrue(redirectedWrites >= 10, "block writes logged for 10 writes: " + redirectedWrites);
            assertTrue(client.disk().dirtyBlocks() > 0, "logged writes are dirty");
            assertArrayEquals(primaryBefore, readFile(primary, VICTIM), "the primary is untouched while redirected");
            assertEquals(RedirectState.REDIRECTED, client.state(), "still redirected while fio runs: " + state());
        }

        // The interferer has stopped: the brick's verdict returns to normal, the client reverts and drains.
        awaitWhileRunning(client, "the drain after the interference", () -> client.state() == RedirectState.NORMAL);
        assertEquals(0, client.disk().dirtyBlocks(), "every logged write drained");
        assertTrue(
                trace.contains("DRAINING") && trace.contains("WARMING"),
                "the client went through warming and draining: " + trace);
        assertArrayEquals(model, client.read(0, model.length), "the disk through VirtCache");
        client.close();

        writeFile(primary, "/plain.img", model);
        assertEquals(
                sha256(readFile(primary, "/plain.img")),
                sha256(readFile(primary, VICTIM)),
                "the drained disk equals a plain copy written without VirtCache");
    }

    /**
     * One request of the victim: 4 KiB reads of its hot blocks, every fourth followed by a 3 KiB write to its cold
     * part, mirrored into the model. Writes stay off the hot blocks because a write while normal forgets a block's
     * logged copy and only the next filter lets it be logged again: a hot block written before the redirection would
     * be read from the primary, as designed, and the count of reads served by the log would depend on timing.
     */
    private void victimStep(VirtCacheClient client) throws Exception {
        int b = random.nextInt(HOT_BLOCKS);
        assertArrayEquals(
                java.util.Arrays.copyOfRange(model, b * B, b * B + 4096),
                client.read((long) b * B, 4096),
                "hot block " + b + " in state " + client.state());
        if (++steps % 4 == 0) {
            int off = HOT_BLOCKS * B + random.nextInt(model.length - HOT_BLOCKS * B - 3072);
            byte[] data = new byte[3072];
            random.nextBytes(data);
            client.write(off, data);
            System.arraycopy(data, 0, model, off, data.length);
        }
    }

    /**
     * Runs the victim (a few requests, then a poll of the client) until {@code done}; fails after the bound with the
     * detector's last state and the client's states seen.
     */
    private void awaitWhileRunning(VirtCacheClient client, String what, BooleanSupplier done) throws Exception {
        long deadline = System.nanoTime() + BOUND_NANOS;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("no " + what + " within " + BOUND_NANOS / 1_000_000_000 + " s; client " + client.state()
                        + ", states seen " + trace + ", dirty " + client.disk().dirtyBlocks() + "; brick's detector: "
                        + state().replace('\n', ' '));
            }
            for (int i = 0; i < 5; i++) {
                victimStep(client);
            }
            VirtCacheClient.Poll poll = client.poll(16);
            String s = poll.state().name();
            if (trace.isEmpty() || !trace.get(trace.size() - 1).equals(s)) {
                trace.add(s);
            }
            Thread.sleep(20);
        }
    }

    private static String state() {
        try {
            return new String(primary.getxattr(VICTIM, VirtCacheClient.STATE_XATTR), StandardCharsets.UTF_8);
        } catch (Exception e) {
            return "unreadable: " + e;
        }
    }

    private static long number(String state, String key) {
        for (String line : state.split("\n")) {
            if (line.startsWith(key + "=")) {
                return Long.parseLong(line.substring(key.length() + 1));
            }
        }
        throw new AssertionError("no " + key + " in " + state);
    }
}
