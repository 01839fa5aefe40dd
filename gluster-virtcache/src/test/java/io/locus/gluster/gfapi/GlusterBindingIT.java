package io.locus.gluster.gfapi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JNA binding against a real 2-brick volume: I/O, metadata, xattrs, errors, threads, handle sharing. */
class GlusterBindingIT {
    private static io.locus.gluster.fixture.GlusterVolume fixture;
    private static GlusterVolume volume;

    @BeforeAll
    static void startVolume() throws Exception {
        fixture = io.locus.gluster.fixture.GlusterVolume.builder(Path.of("target", "gluster-it"))
                .name("locus-gfapi")
                .bricks(2)
                .start();
        volume = GlusterVolume.connect(fixture.server(), fixture.name(), fixture.gfapiLog());
    }

    @AfterAll
    static void stopVolume() {
        if (volume != null) {
            volume.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void writtenBytes_readBack_andReachTheBrick() throws Exception {
        byte[] data = random(3 << 20, 1);
        try (GlusterFile f = volume.create("/round.bin")) {
            f.write(0, data);
            f.fsync();
            assertArrayEquals(data, f.read(0, data.length));
            assertArrayEquals(Arrays.copyOfRange(data, 1000, 1100), f.read(1000, 100));
            assertEquals(data.length, f.stat().size());
        }
        Path onBrick = fixture.bricks().get(fixture.brickOf("/round.bin")).resolve("round.bin");
        assertArrayEquals(data, Files.readAllBytes(onBrick), "the brick's copy");
    }

    @Test
    void writesAtOffsets_holes_andReadsPastTheEnd() throws Exception {
        try (GlusterFile f = volume.create("/offsets.bin")) {
            f.write(1 << 20, "tail".getBytes(StandardCharsets.UTF_8));
            assertEquals((1 << 20) + 4, f.stat().size());
            assertArrayEquals(new byte[4096], f.read(4096, 4096), "a hole reads as zeros");
            assertArrayEquals("ta".getBytes(StandardCharsets.UTF_8), f.read(1 << 20, 2));
            assertEquals(4, f.read(1 << 20, 100).length, "short only where the file ends");
            assertEquals(0, f.read(10 << 20, 100).length);
        }
    }

    @Test
    void truncate_cutsAndExtends() throws Exception {
        try (GlusterFile f = volume.create("/truncate.bin")) {
            f.write(0, random(10_000, 2));
            f.truncate(100);
            assertEquals(100, f.stat().size());
            f.truncate(5000);
            assertEquals(5000, volume.stat("/truncate.bin").size());
            assertArrayEquals(new byte[4900], f.read(100, 4900), "extended part reads as zeros");
        }
        FileStat st = volume.stat("/truncate.bin");
        assertTrue(st.isRegularFile(), st.toString());
        assertEquals(0644, st.permissions(), Integer.toOctalString(st.mode()));
        assertTrue(volume.stat("/").isDirectory());
    }

    @Test
    void xattrs_byPathAndByFd() throws Exception {
        try (GlusterFile f = volume.create("/xattr.bin")) {
            f.setxattr("user.locus", "one".getBytes(StandardCharsets.UTF_8));
            assertEquals("one", new String(volume.getxattr("/xattr.bin", "user.locus"), StandardCharsets.UTF_8));
            volume.setxattr("/xattr.bin", "user.locus", "two".getBytes(StandardCharsets.UTF_8));
            assertEquals("two", new String(f.getxattr("user.locus"), StandardCharsets.UTF_8));
            assertEquals("two", new String(f.getxattr("user.locus", 3), StandardCharsets.UTF_8), "exact buffer");
        }
        try (GlusterFile f = volume.open("/xattr.bin", true)) {
            GlusterException small = assertThrows(GlusterException.class, () -> f.getxattr("user.locus", 1));
            assertEquals(GlusterException.ERANGE, small.errno(), small.getMessage());
            f.removexattr("user.locus");
            GlusterException gone = assertThrows(GlusterException.class, () -> f.getxattr("user.locus"));
            assertEquals(GlusterException.ENODATA, gone.errno());
            assertTrue(
                    gone.getMessage().contains("glfs_fgetxattr user.locus(/xattr.bin) on volume locus-gfapi"),
                    gone.getMessage());
        }
        volume.setxattr("/xattr.bin", "user.b", new byte[0]);
        assertEquals(0, volume.getxattr("/xattr.bin", "user.b").length);
        volume.removexattr("/xattr.bin", "user.b");
    }

    @Test
    void errors_carryErrnoPathAndVolume() throws Exception {
        GlusterException missing = assertThrows(GlusterException.class, () -> volume.open("/no-such.bin", false));
        assertEquals(GlusterException.ENOENT, missing.errno());
        assertEquals("/no-such.bin", missing.path());
        assertEquals(
                "glfs_open(/no-such.bin) on volume locus-gfapi: errno 2 (No such file or directory)",
                missing.getMessage());
        GlusterException unlink = assertThrows(GlusterException.class, () -> volume.unlink("/no-such.bin"));
        assertEquals(GlusterException.ENOENT, unlink.errno());
        assertThrows(IllegalArgumentException.class, () -> volume.open("relative.bin", false));
        GlusterFile f = volume.create("/closed.bin");
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> f.read(-1, 10));
        assertTrue(negative.getMessage().contains("offset -1"), negative.getMessage());
        f.close();
        f.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> f.read(0, 1));
        assertTrue(closed.getMessage().contains("/closed.bin"), closed.getMessage());
        volume.unlink("/closed.bin");
        assertThrows(GlusterException.class, () -> volume.stat("/closed.bin"));
    }

    @Test
    void rename_replacesTheTarget() throws Exception {
        try (GlusterFile a = volume.create("/rename-a.bin");
                GlusterFile b = volume.create("/rename-b.bin")) {
            a.write(0, new byte[] {1, 2, 3});
            b.write(0, new byte[] {9});
        }
        volume.rename("/rename-a.bin", "/rename-b.bin");
        try (GlusterFile b = volume.open("/rename-b.bin", false)) {
            assertArrayEquals(new byte[] {1, 2, 3}, b.read(0, 10));
        }
        GlusterException gone = assertThrows(GlusterException.class, () -> volume.stat("/rename-a.bin"));
        assertEquals(GlusterException.ENOENT, gone.errno());
        GlusterException missing =
                assertThrows(GlusterException.class, () -> volume.rename("/rename-a.bin", "/rename-c.bin"));
        assertEquals(GlusterException.ENOENT, missing.errno());
        assertTrue(
                missing.getMessage().startsWith("glfs_rename to /rename-c.bin(/rename-a.bin)"), missing.getMessage());
        volume.unlink("/rename-b.bin");
    }

    @Test
    void oneFile_manyThreads() throws Exception {
        byte[] data = random(1 << 20, 3);
        try (GlusterFile f = volume.create("/threads.bin")) {
            f.write(0, data);
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int seed = t;
                    results.add(pool.submit(() -> {
                        Random r = new Random(seed);
                        int wrong = 0;
                        for (int i = 0; i < 300; i++) {
                            int off = r.nextInt(data.length - 4096);
                            wrong +=
                                    Arrays.equals(f.read(off, 4096), Arrays.copyOfRange(data, off, off + 4096)) ? 0 : 1;
                        }
                        return wrong;
                    }));
                }
                for (Future<Integer> r : results) {
                    assertEquals(0, r.get(), "reads that returned other bytes");
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void oneHandlePerVolume_sharedByEveryConnect() throws Exception {
        int before = volume.sharedBy();
        try (GlusterVolume second = GlusterVolume.connect(fixture.server(), fixture.name(), fixture.gfapiLog())) {
            assertEquals(before + 1, second.sharedBy());
            assertEquals(before + 1, volume.sharedBy());
            try (GlusterFile f = second.create("/shared.bin")) {
                f.write(0, new byte[] {42});
            }
            try (GlusterFile f = volume.open("/shared.bin", false)) {
                assertArrayEquals(new byte[] {42}, f.read(0, 1));
            }
        }
        assertEquals(before, volume.sharedBy(), "closing a view leaves the handle to the others");
        assertNotEquals(0, volume.stat("/shared.bin").size());
    }

    private static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
