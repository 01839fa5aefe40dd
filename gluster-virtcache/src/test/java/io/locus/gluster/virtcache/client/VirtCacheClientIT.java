package io.locus.gluster.virtcache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.BuiltTranslator;
import io.locus.gluster.virtcache.hotblock.HotBlockFilter;
import io.locus.gluster.virtcache.hotblock.TranslatorStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client on two real volumes: the disk on one with the translator, the log on another. Hot reads leave the
 * primary brick while redirected (its translator stops counting them), writes land in the log only, a client dropped
 * mid-redirect loses nothing when the next one replays the journal and drains, and the disk ends equal to a plain copy.
 */
class VirtCacheClientIT {
    static final int B = 65536;
    static final int BLOCKS = 32;

    private static io.locus.gluster.fixture.GlusterVolume primaryFixture;
    private static io.locus.gluster.fixture.GlusterVolume logFixture;
    private static GlusterVolume primary;
    private static GlusterVolume logVolume;

    @BeforeAll
    static void startVolumes() throws Exception {
        primaryFixture = io.locus.gluster.fixture.GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vcc")
                .userTranslator(UserTranslator.abovePosix("virtcache", BuiltTranslator.library()))
                .option("user.xlator.virtcache.count-writes", "off")
                .start();
        logFixture = io.locus.gluster.fixture.GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-vclog")
                .start();
        primary = GlusterVolume.connect(primaryFixture.server(), primaryFixture.name(), primaryFixture.gfapiLog());
        logVolume = GlusterVolume.connect(logFixture.server(), logFixture.name(), logFixture.gfapiLog());
    }

    @AfterAll
    static void stopVolumes() {
        closeAll(primary, logVolume, primaryFixture, logFixture);
    }

    /** Closes each in order; a failure is reported and does not keep the rest open. */
    static void closeAll(AutoCloseable... closeables) {
        for (AutoCloseable c : closeables) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                System.err.println("closing " + c + ": " + e);
            }
        }
    }

    @Test
    void redirect_crash_replay_drain_endsEqualToAPlainCopy() throws Exception {
        Random r = new Random(14);
        byte[] model = new byte[BLOCKS * B];
        r.nextBytes(model);
        writeFile(primary, "/disk.img", model);

        VirtCacheClient client = VirtCacheClient.open(primary, logVolume, "/disk.img", B);
        assertEquals(RedirectState.NORMAL, client.state());
        for (int round = 0; round < 3; round++) {
            for (int b = 0; b < 8; b++) {
                assertArrayEquals(slice(model, b * B, 4096), client.read((long) b * B, 4096));
            }
        }
        rotate("/disk.img");
        HotBlockFilter hot = client.refreshHotBlocks();
        assertEquals(8, hot.inserted(), hot.toString());

        // NORMAL: hot reads are served by the primary, and the data logger copies their blocks to the log.
        for (int b = 0; b < 8; b++) {
            client.read((long) b * B + 100, 100);
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (client.disk().loggedOnRead() < 8 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(8, client.disk().loggedOnRead());
        assertTrue(logFixture.brickOf("/disk.img.vclog") >= 0, "the shadow image is on the log volume's brick");
        assertThrows(NoSuchElementException.class, () -> primaryFixture.brickOf("/disk.img.vclog"));

        client.startRedirect();
        assertEquals(8, client.warm(100));
        assertEquals(RedirectState.REDIRECTED, client.state());
        rotate("/disk.img");
        // Hot reads no longer reach the primary brick; a cold one does.
        for (int b = 0; b < 8; b++) {
            assertArrayEquals(slice(model, b * B, B), client.read((long) b * B, B));
        }
        assertEquals(0, stats("/disk.img").windowReads(), "hot reads served by the log");
        assertArrayEquals(slice(model, 20 * B, 4096), client.read(20L * B, 4096));
        assertEquals(1, stats("/disk.img").windowReads(), "the cold read went to the primary");

        // Writes land in the log only, and are read back at once.
        byte[] before = readFile(primary, "/disk.img");
        for (long off : new long[] {5L * B + 1000, 25L * B + 7, 31L * B + B - 10}) {
            byte[] data = new byte[(int) Math.min(3000, model.length - off)];
            r.nextBytes(data);
            client.write(off, data);
            System.arraycopy(data, 0, model, (int) off, data.length);
            assertArrayEquals(data, client.read(off, data.length));
        }
        assertArrayEquals(before, readFile(primary, "/disk.img"), "the primary is untouched while redirected");
        assertEquals(3, client.disk().dirtyBlocks());

        // The VM's flush makes them durable; then the client is dropped without close, as a killed process would be,
        // and a new one replays the journal.
        client.flush();
        VirtCacheClient next = VirtCacheClient.open(primary, logVolume, "/disk.img", B);
        assertEquals(RedirectState.DRAINING, next.state(), "dirty blocks force a drain");
        assertArrayEquals(model, next.read(0, model.length), "no acknowledged write lost");
        while (next.state() == RedirectState.DRAINING) {
            next.drain(1);
        }
        next.close();

        writeFile(primary, "/plain.img", model);
        assertEquals(sha256(readFile(primary, "/plain.img")), sha256(readFile(primary, "/disk.img")));
        Path brickCopy = primaryFixture.bricks().get(0).resolve("disk.img");
        assertArrayEquals(model, Files.readAllBytes(brickCopy), "the brick's file after draining");
    }

    /**
     * A child JVM redirecting and writing regions is killed with SIGKILL mid-stream; a new client replays the journal.
     * The durability contract checked ({@link RedirectedWriter#checkRegions}): every region a returned flush covered
     * reads back exactly; each byte of a region acknowledged after the last flush, or of the one write that may have
     * been in flight, reads as before (zero) or as written; no later region was written at all. What the child had
     * acknowledged is known exactly: every line it printed is read, up to the end of its output, after the kill.
     */
    @Test
    void jvmKilledMidRedirect_keepsEveryFlushedWrite_andNothingComesBackCorrupted() throws Exception {
        Killed killed = killWriterMidRedirect("/killed.img");
        VirtCacheClient.JournalSummary left = VirtCacheClient.inspect(logVolume, "/killed.img");
        VirtCacheClient next = VirtCacheClient.open(primary, logVolume, "/killed.img", B);
        assertEquals(RedirectState.DRAINING, next.state(), "the killed client left dirty blocks");
        VirtCacheClient.JournalSummary compacted = VirtCacheClient.inspect(logVolume, "/killed.img");
        assertEquals(left.dirtyBlocks(), compacted.dirtyBlocks(), "the reopened journal names the same dirty blocks");
        assertEquals(
                compacted.loggedBlocks() + 1,
                compacted.records(),
                "rewritten at open: OPENED and one record per logged block (" + left.records() + " records before)");
        assertTrue(left.records() > compacted.records(), left + " then " + compacted);
        killed.check(next.read(0, BLOCKS * B), "after the restart");
        while (next.state() == RedirectState.DRAINING) {
            next.drain(8);
        }
        killed.check(readFile(primary, "/killed.img"), "on the primary after draining");
        next.close();
    }

    /**
     * The check above on a log that lost a flushed write: after the kill the last flushed region's bytes in the
     * shadow image are put back to what they were before the write (zeros), as a log brick dropping that write would
     * leave them. The check must name that region.
     */
    @Test
    void jvmKilledMidRedirect_aFlushedWriteTheLogLost_isCaught() throws Exception {
        Killed killed = killWriterMidRedirect("/lost.img");
        try (GlusterFile shadow = logVolume.open("/lost.img.vclog", true)) {
            shadow.write((long) killed.flushed() * killed.regionBytes(), new byte[killed.regionBytes()]);
            shadow.fsync();
        }
        VirtCacheClient next = VirtCacheClient.open(primary, logVolume, "/lost.img", B);
        byte[] disk = next.read(0, BLOCKS * B);
        next.close();
        AssertionError lost = assertThrows(AssertionError.class, () -> killed.check(disk, "after the restart"));
        assertTrue(lost.getMessage().startsWith("region " + killed.flushed() + ", flushed"), lost.getMessage());
    }

    /** What a killed {@link RedirectedWriter} had printed: the last region acknowledged and the last one flushed. */
    record Killed(int regionBytes, int acked, int flushed) {
        void check(byte[] disk, String when) {
            RedirectedWriter.checkRegions(disk, regionBytes, acked, flushed, when);
        }
    }

    /**
     * Starts a {@link RedirectedWriter} on a zeroed disk {@code path}, kills it with SIGKILL once it has flushed 40
     * regions and acknowledged at least two more, and reads its output to the end: lines still in the pipe at the kill
     * count too, so on a busy machine the regions it acknowledged after the test decided to kill it are known.
     */
    private static Killed killWriterMidRedirect(String path) throws Exception {
        int regionBytes = 3000;
        int regions = (BLOCKS * B) / regionBytes;
        writeFile(primary, path, new byte[BLOCKS * B]);
        String name = path.substring(1);
        Path childLog = primaryFixture.directory().resolve(name + "-writer-gfapi.log");
        Path childErr = primaryFixture.directory().resolve(name + "-writer.err");
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(io.locus.fixture.HostProcess.privateTmpJvmOption());
        command.addAll(java.util.List.of(
                "-cp",
                System.getProperty("java.class.path"),
                RedirectedWriter.class.getName(),
                primaryFixture.server(),
                primaryFixture.name(),
                logFixture.name(),
                childLog.toString(),
                path,
                Integer.toString(B),
                Integer.toString(regionBytes),
                Integer.toString(regions),
                Integer.toString(RedirectedWriter.FLUSH_EVERY)));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(childErr.toFile());
        Process child = pb.start();
        int acked = -1;
        int flushed = -1;
        boolean killed = false;
        int ackedAtKill = -1;
        try (java.io.BufferedReader out = new java.io.BufferedReader(
                new java.io.InputStreamReader(child.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
            long deadline = System.nanoTime() + 120_000_000_000L;
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("ACK ")) {
                    acked = Integer.parseInt(line.substring(4));
                } else if (line.startsWith("FLUSHED ")) {
                    flushed = Integer.parseInt(line.substring(8));
                }
                if (!killed && flushed >= 40 && acked >= flushed + 2) {
                    // Mid-stream: writes after the last flush are acknowledged, the next is in flight or about to be.
                    // The loop reads on: what the child printed before it died is still in the pipe. (SIGKILL by its
                    // handle: Process.destroyForcibly would also close the pipe.)
                    child.toHandle().destroyForcibly();
                    killed = true;
                    ackedAtKill = acked;
                } else if (!killed && System.nanoTime() > deadline) {
                    break;
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(30, java.util.concurrent.TimeUnit.SECONDS), "child ended");
        } finally {
            child.destroyForcibly();
        }
        assertTrue(
                killed && acked > flushed,
                "child acknowledged " + acked + " writes and flushed " + flushed + "; its stderr: "
                        + Files.readString(childErr));
        System.out.println(path + ": writer killed after reading ACK " + ackedAtKill
                + "; its output read to the end: ACK " + acked + ", FLUSHED " + flushed);
        return new Killed(regionBytes, acked, flushed);
    }

    @Test
    void cli_showsHotBlocksAndTheJournal() throws Exception {
        writeFile(primary, "/cli.img", new byte[BLOCKS * B]);
        try (GlusterFile f = primary.open("/cli.img", false)) {
            for (int i = 0; i < 3; i++) {
                f.read(7L * B, 4096);
            }
            f.read(9L * B, 4096);
        }
        String[] where = {"--server", primaryFixture.server(), "--volume", primaryFixture.name(), "--file", "/cli.img"};
        Cli hot = cli(concat(new String[] {"hot", "--json"}, where));
        assertEquals(0, hot.code, hot.err);
        assertTrue(hot.out.contains("\"window_reads\":4"), hot.out);
        assertTrue(hot.out.contains("\"top\":[{") && hot.out.contains("\"block\":7"), hot.out);
        assertTrue(hot.out.contains("\"filter\":{\"epoch\":"), hot.out);
        Cli text = cli(concat(new String[] {"hot"}, where));
        assertTrue(text.out.contains("hottest blocks now (block:count): 7:3,9:1"), text.out);

        VirtCacheClient client = VirtCacheClient.open(primary, logVolume, "/cli.img", B);
        client.startRedirect();
        client.write(3L * B, new byte[] {1, 2, 3});
        client.close();
        Cli status = cli(concat(new String[] {"status", "--json", "--log-volume", logFixture.name()}, where));
        assertEquals(0, status.code, status.err);
        assertTrue(status.out.contains("\"state\":\"normal\""), status.out);
        assertTrue(
                status.out.contains("\"dirtyBlocks\":1") && status.out.contains("\"nextOpen\":\"DRAINING\""),
                status.out);

        Cli missing = cli(
                "hot", "--server", primaryFixture.server(), "--volume", primaryFixture.name(), "--file", "/nope.img");
        assertEquals(1, missing.code);
        assertTrue(missing.err.contains("glfs_open(/nope.img)") && missing.err.contains("errno 2"), missing.err);
        Cli usage = cli("hot", "--file", "/cli.img");
        assertEquals(2, usage.code);
        assertTrue(usage.err.contains("--volume"), usage.err);
    }

    @Test
    void cli_replaysTheTrace_withAndWithoutVirtCache_toTheSameBytes() throws Exception {
        String trace = Path.of(System.getProperty("locus.data.dir"), "cloudphysics", "cloudPhysicsIO.csv")
                .toString();
        String[] common = {
            "replay",
            "--json",
            "--no-progress",
            "--server",
            primaryFixture.server(),
            "--volume",
            primaryFixture.name(),
            "--trace",
            trace,
            "--limit",
            "1500",
            "--disk-size",
            Long.toString(64L << 20)
        };
        Cli off = cli(concat(common, new String[] {"--file", "/replay-off.img", "--virtcache", "off"}));
        assertEquals(0, off.code, off.err);
        assertTrue(off.out.contains("\"requests\":1500") && off.out.contains("\"virtcache\":\"off\""), off.out);
        Cli on = cli(concat(common, new String[] {
            "--file", "/replay-on.img", "--virtcache", "on", "--log-volume", logFixture.name(), "--redirect"
        }));
        assertEquals(0, on.code, on.err);
        assertTrue(on.out.contains("\"requests\":1500") && on.out.contains("\"redirected\":true"), on.out);
        assertTrue(on.out.contains("\"drainedBlocks\":") && !on.out.contains("\"writesToLog\":0,"), on.out);
        assertEquals(
                sha256(readFile(primary, "/replay-off.img")),
                sha256(readFile(primary, "/replay-on.img")),
                "a replay through VirtCache, redirected and drained, leaves the same disk as plain libgfapi");
        Cli noLog = cli(concat(common, new String[] {"--file", "/x.img"}));
        assertEquals(2, noLog.code);
        assertTrue(noLog.err.contains("--virtcache on needs --log-volume"), noLog.err);
    }

    @Test
    void nbdExport_qemuIoRoundTrips_inEveryClientState() throws Exception {
        int size = 8 << 20;
        writeFile(primary, "/nbd.img", new byte[size]);
        io.locus.gluster.virtcache.cli.VirtCacheCommand.Serving serving =
                io.locus.gluster.virtcache.cli.VirtCacheCommand.serveInBackground(
                        "--server",
                        primaryFixture.server(),
                        "--volume",
                        primaryFixture.name(),
                        "--file",
                        "/nbd.img",
                        "--log-volume",
                        logFixture.name(),
                        "--port",
                        "0",
                        "--poll-ms",
                        "0");
        try {
            int port = serving.port();
            VirtCacheClient client = serving.client();
            qemuIo(port, "read 0 64k", "read 0 64k", "read 1m 64k", "read 1m 64k");
            rotate("/nbd.img");
            client.refreshHotBlocks();

            assertEquals(RedirectState.NORMAL, client.state());
            qemuIo(port, "write -P 0x11 0 64k", "read -P 0x11 0 64k");
            client.startRedirect();
            qemuIo(port, "write -P 0x22 1m 64k", "read -P 0x22 1m 64k", "read -P 0x11 0 64k");
            client.warm(Integer.MAX_VALUE);
            assertEquals(RedirectState.REDIRECTED, client.state());
            qemuIo(port, "write -P 0x33 2m 4k", "read -P 0x33 2m 4k", "read -P 0x22 1m 64k", "flush");
            assertTrue(client.disk().writesToLog() >= 2, "redirected writes went to the log");
            client.endRedirect();
            qemuIo(
                    port,
                    "write -P 0x44 3m 4k",
                    "write -P 0x55 1m 4k",
                    "read -P 0x55 1m 4k",
                    "read -P 0x22 1052672 61440",
                    "read -P 0x33 2m 4k");
            while (client.state() == RedirectState.DRAINING) {
                client.drain(2);
            }
            qemuIo(
                    port,
                    "read -P 0x11 0 64k",
                    "read -P 0x55 1m 4k",
                    "read -P 0x22 1052672 61440",
                    "read -P 0x33 2m 4k",
                    "read -P 0x44 3m 4k",
                    "read -P 0 4m 64k");
        } finally {
            serving.stop();
        }
        byte[] disk = readFile(primary, "/nbd.img");
        assertEquals(size, disk.length);
        assertEquals(0x11, disk[0] & 0xff);
        assertEquals(0x55, disk[1 << 20] & 0xff);
        assertEquals(0x22, disk[(1 << 20) + 4096] & 0xff);
        assertEquals(0x33, disk[2 << 20] & 0xff);
        assertEquals(0x44, disk[3 << 20] & 0xff);
    }

    @Test
    void nbdExport_pollsTheBricksVerdict_andAtLowLoadStaysOnThePrimary() throws Exception {
        writeFile(primary, "/polled-nbd.img", new byte[1 << 20]);
        io.locus.gluster.virtcache.cli.VirtCacheCommand.Serving serving =
                io.locus.gluster.virtcache.cli.VirtCacheCommand.serveInBackground(
                        "--server",
                        primaryFixture.server(),
                        "--volume",
                        primaryFixture.name(),
                        "--file",
                        "/polled-nbd.img",
                        "--log-volume",
                        logFixture.name(),
                        "--port",
                        "0",
                        "--poll-ms",
                        "50");
        try {
            int port = serving.port();
            qemuIo(port, "write -P 0x66 0 64k", "read -P 0x66 0 64k", "flush");
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (serving.polls() < 5 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(serving.polls() >= 5, "polls: " + serving.polls());
            assertEquals(RedirectState.NORMAL, serving.client().state(), "alone, the export stays on its primary");
            qemuIo(port, "read -P 0x66 0 64k");
        } finally {
            serving.stop();
        }
        assertEquals(0x66, readFile(primary, "/polled-nbd.img")[0] & 0xff);
    }

    private static void qemuIo(int port, String... commands) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of("qemu-io", "-f", "raw"));
        for (String c : commands) {
            cmd.add("-c");
            cmd.add(c);
        }
        cmd.add("nbd://127.0.0.1:" + port);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), out);
        assertEquals(0, p.exitValue(), String.join(" | ", commands) + ":\n" + out);
        assertFalse(out.contains("failed") || out.contains("error"), String.join(" | ", commands) + ":\n" + out);
    }

    private record Cli(int code, String out, String err) {}

    private static Cli cli(String... args) {
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cl = io.locus.gluster.virtcache.cli.VirtCacheCommand.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        cl.setErr(new java.io.PrintWriter(err, true));
        int code = cl.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    @Test
    void poll_readsTheBricksVerdict_andAtLowLoadStaysOnThePrimary() throws Exception {
        byte[] model = new byte[BLOCKS * B];
        new Random(7).nextBytes(model);
        writeFile(primary, "/polled.img", model);
        try (VirtCacheClient client = VirtCacheClient.open(primary, logVolume, "/polled.img", B)) {
            for (int i = 0; i < 3; i++) {
                for (int b = 0; b < 4; b++) {
                    assertArrayEquals(slice(model, b * B, 4096), client.read((long) b * B, 4096));
                }
                VirtCacheClient.Poll poll = client.poll(8);
                assertFalse(poll.interfered(), poll.toString());
                assertEquals(RedirectPolicy.Action.NONE, poll.action(), poll.toString());
                assertEquals(RedirectState.NORMAL, poll.state(), poll.toString());
                assertTrue(poll.iops() > 0, "this poll's reads are counted: " + poll);
            }
        }
    }

    @Test
    void translatorBlockSizeMismatch_isRefusedWithBothSizes() throws Exception {
        writeFile(primary, "/other.img", new byte[B]);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> VirtCacheClient.open(primary, logVolume, "/other.img", 4096));
        assertTrue(e.getMessage().contains("blocks of 65536 bytes (expected: 4096"), e.getMessage());
        GlusterException missing =
                assertThrows(GlusterException.class, () -> VirtCacheClient.open(primary, logVolume, "/missing.img", B));
        assertEquals(GlusterException.ENOENT, missing.errno());
        assertFalse(missing.getMessage().isEmpty());
    }

    private static TranslatorStats stats(String path) throws GlusterException {
        return TranslatorStats.parse(primary.getxattr(path, TranslatorStats.XATTR));
    }

    private static void rotate(String path) throws GlusterException {
        primary.setxattr(path, "trusted.virtcache.rotate", new byte[] {'1'});
    }

    static void writeFile(GlusterVolume volume, String path, byte[] data) throws GlusterException {
        try (GlusterFile f = volume.create(path)) {
            f.write(0, data);
            f.fsync();
        }
    }

    static byte[] readFile(GlusterVolume volume, String path) throws GlusterException {
        try (GlusterFile f = volume.open(path, false)) {
            return f.read(0, (int) f.stat().size());
        }
    }

    private static byte[] slice(byte[] b, int off, int len) {
        return Arrays.copyOfRange(b, off, off + len);
    }

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }
}
