package io.locus.gluster.virtcache.interference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The emulation of separate servers ({@link EmulatedServers}) on a real brick, so that it cannot silently be a no-op:
 * the brick's process and all its threads land in the brick's group; a disk opened O_DIRECT through the brick, and a
 * competing fio job through the brick, are charged to the brick's group on the throttled disk (fio's own group, which
 * only caps fio's CPU, pays next to nothing); and closing moves the brick back to the root group, removes every group,
 * and leaves the brick serving. Counts and states only; every wait is bounded.
 */
class EmulatedServersIT {
    static final int B = 65536;
    static final int BLOCKS = 64;
    static final long BOUND_NANOS = 120_000_000_000L;

    @Test
    void brickInItsGroup_payingForItsClientsDiskIo_andEveryGroupRemovedAfter() throws Exception {
        Path dir = Path.of("target", "gluster-it");
        EmulatedServers.unusable(EmulatedServers.CGROUP_ROOT, dir)
                .ifPresent(why -> fail("separate servers cannot be emulated on this machine: " + why));
        byte[] data = new byte[BLOCKS * B];
        new Random(14).nextBytes(data);
        try (io.locus.gluster.fixture.GlusterVolume fixture = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcs")
                        .start();
                GlusterVolume volume = GlusterVolume.connect(fixture.server(), fixture.name(), fixture.gfapiLog())) {
            long brick = fixture.brickPids().get(0);
            long fioPid;
            try (EmulatedServers servers = EmulatedServers.create(EmulatedServers.CGROUP_ROOT, dir)) {
                servers.add("brick", ServerBudget.SERVER, brick);
                assertEquals(List.of(brick), servers.pids("brick"));
                assertEquals(
                        threadCount(brick), threadsIn(brick, "brick"), "every thread of the brick is in its group");

                long before = servers.ioServiced("brick");
                try (GlusterFile f = volume.create("/victim.img")) {
                    f.truncate(data.length);
                }
                try (GlusterFile f = volume.openDirect("/victim.img")) {
                    for (int b = 0; b < BLOCKS; b++) {
                        f.write((long) b * B, Arrays.copyOfRange(data, b * B, (b + 1) * B));
                    }
                    f.fsync();
                    for (int b = 0; b < BLOCKS; b++) {
                        assertArrayEquals(
                                Arrays.copyOfRange(data, b * B, (b + 1) * B), f.read((long) b * B, B), "block " + b);
                    }
                }
                long victimIos = servers.ioServiced("brick") - before;
                assertTrue(
                        victimIos >= BLOCKS,
                        "4 MiB written and 4 MiB read O_DIRECT in 64 KiB requests reach the throttled disk as the"
                                + " brick's I/O: " + victimIos + " I/Os charged (expected: at least " + BLOCKS + ")");

                long fioIos;
                long brickIos;
                try (FioInterferer fio = FioInterferer.start(
                        fixture, "/interferer.img", BOUND_NANOS, c -> servers.wrap("fio", ServerBudget.CLIENT, c))) {
                    fioPid = fio.pid();
                    assertEquals(List.of(fioPid), servers.pids("fio"), "fio runs in its own group");
                    long deadline = System.nanoTime() + BOUND_NANOS;
                    // fio's start-up reads its gfapi engine's client libraries from disk, charged to its own group
                    // when they are not cached; the count starts once its reads and writes reach the brick.
                    awaitBrickIos(servers, fio, 20, deadline);
                    long start = servers.ioServiced("brick");
                    long fioStart = servers.ioServiced("fio");
                    awaitBrickIos(servers, fio, 200, deadline);
                    brickIos = servers.ioServiced("brick") - start;
                    fioIos = servers.ioServiced("fio") - fioStart;
                }
                assertTrue(
                        fioIos * 10 < brickIos,
                        "fio's I/O is served, and charged, by the brick: fio's group " + fioIos + ", the brick's "
                                + brickIos);
                assertEquals(List.of(), servers.pids("fio"), "fio ended");
            }
            assertEquals("/", cgroupOf(brick, "blkio"), "the brick is back in the root group");
            assertEquals("/", cgroupOf(brick, "cpu"));
            try (var s = Files.list(EmulatedServers.CGROUP_ROOT.resolve("blkio"))) {
                String mine = EmulatedServers.PREFIX + ProcessHandle.current().pid() + "-";
                assertEquals(
                        List.of(),
                        s.map(p -> p.getFileName().toString())
                                .filter(n -> n.startsWith(mine))
                                .toList(),
                        "no group of this run is left");
            }
            try (GlusterFile f = volume.open("/victim.img", false)) {
                assertArrayEquals(Arrays.copyOfRange(data, 0, B), f.read(0, B), "the brick still serves");
            }
        }
    }

    /** The process's group in {@code controller}'s hierarchy, from /proc/PID/cgroup ("/" for the root group). */
    /** Waits until the brick's group has been charged {@code ios} more I/Os while fio runs. */
    private static void awaitBrickIos(EmulatedServers servers, FioInterferer fio, long ios, long deadline)
            throws IOException, InterruptedException {
        long start = servers.ioServiced("brick");
        while (servers.ioServiced("brick") - start < ios) {
            if (!fio.isAlive() || System.nanoTime() > deadline) {
                fail("the brick's group was charged " + (servers.ioServiced("brick") - start) + " I/Os while fio ran"
                        + " (expected: " + ios + "); fio alive " + fio.isAlive() + ": " + fio.logTail());
            }
            Thread.sleep(100);
        }
    }

    static String cgroupOf(long pid, String controller) throws IOException {
        return cgroupLine(Path.of("/proc", Long.toString(pid), "cgroup"), controller);
    }

    private static String cgroupLine(Path file, String controller) throws IOException {
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split(":", 3);
            if (f.length == 3 && List.of(f[1].split(",")).contains(controller)) {
                return f[2];
            }
        }
        return "";
    }

    /** How many of the process's threads are in group {@code name}'s blkio group. */
    private static long threadsIn(long pid, String name) throws IOException {
        String group = "/" + EmulatedServers.PREFIX + ProcessHandle.current().pid() + "-" + name;
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            long n = 0;
            for (Path t : tasks.toList()) {
                if (group.equals(cgroupLine(t.resolve("cgroup"), "blkio"))) {
                    n++;
                }
            }
            return n;
        }
    }

    /** How many threads the process has. */
    private static long threadCount(long pid) throws IOException {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.count();
        }
    }
}
