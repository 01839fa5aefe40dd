package io.locus.gluster.virtcache.interference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmulatedServersTest {
    @Test
    void ioServiced_isTheDevicesTotal() {
        String text = "254:0 Read 120\n254:0 Write 30\n254:0 Sync 150\n254:0 Async 0\n254:0 Discard 0\n"
                + "254:0 Total 150\n253:0 Total 7\nTotal 157\n";
        assertEquals(150, EmulatedServers.ioServiced(text, "254:0"));
        assertEquals(7, EmulatedServers.ioServiced(text, "253:0"));
        assertEquals(0, EmulatedServers.ioServiced(text, "8:0"), "a device without I/O is not listed");
        assertEquals(0, EmulatedServers.ioServiced("Total 0\n", "254:0"));
    }

    @Test
    void majorMinor_asGlibcDecodesDevT() {
        assertEquals("254:0", EmulatedServers.majorMinor(0xfe00L));
        assertEquals("8:17", EmulatedServers.majorMinor(0x811L));
        // major 259, minor 300: the large-number encoding of the kernel's new_encode_dev
        long dev = (300L & 0xff) | ((259L & 0xfff) << 8) | ((300L & ~0xffL) << 12);
        assertEquals("259:300", EmulatedServers.majorMinor(dev));
    }

    @Test
    void unusable_namesWhatIsMissing(@TempDir Path dir) {
        String why = EmulatedServers.unusable(dir, dir).orElseThrow();
        assertTrue(why.contains("no cgroup v1 cpu hierarchy") && why.contains(dir.toString()), why);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> EmulatedServers.create(dir, dir));
        assertTrue(e.getMessage().startsWith("cannot emulate separate servers: no cgroup v1 cpu"), e.getMessage());
    }

    @Test
    void budget_refusesNegativeLimitsAndOddPeriods() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new ServerBudget(10_000, 20_000, -1, 0, 0, 0, 0));
        assertTrue(e.getMessage().contains("negative budget"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ServerBudget(10_000, 500, 0, 0, 0, 0, 0));
        assertTrue(e.getMessage().contains("cpu period 500 µs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ServerBudget(10, 20_000, 0, 0, 0, 0, 0));
        assertTrue(e.getMessage().contains("cpu quota 10 µs"), e.getMessage());
        assertEquals("1.00 cores (20000 µs per 20000 µs)", ServerBudget.CLIENT.describe());
        assertEquals(
                "0.50 cores (10000 µs per 20000 µs), disk 2,000 reads/s 32 MiB/s, 2,000 writes/s 32 MiB/s",
                ServerBudget.SERVER.describe());
        e = assertThrows(IllegalArgumentException.class, () -> ServerBudget.SERVER.withShares(1));
        assertEquals("cpu shares 1 (expected: 2 to 262144, the kernel's range, or 0 for its default)", e.getMessage());
        assertEquals(
                "1.00 cores (20000 µs per 20000 µs), weight 8,192 (cpu.shares)",
                ServerBudget.CLIENT.withShares(8192).describe());
        assertEquals(
                "any CPU, weight 8,192 (cpu.shares)",
                ServerBudget.UNLIMITED.withShares(8192).describe());
    }
}
