package io.locus.gluster.virtcache.nbd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The NBD server against Debian's qemu-io (qemu-utils): an unmodified NBD client writes, reads and verifies. */
class NbdServerIT {
    static final int SIZE = 8 << 20;

    /** A disk in memory that counts flushes. */
    static final class MemoryDisk implements NbdServer.Disk {
        final byte[] bytes = new byte[SIZE];
        int flushes;

        @Override
        public long size() {
            return SIZE;
        }

        @Override
        public synchronized byte[] read(long offset, int length) {
            return Arrays.copyOfRange(bytes, (int) offset, (int) offset + length);
        }

        @Override
        public synchronized void write(long offset, byte[] data) {
            System.arraycopy(data, 0, bytes, (int) offset, data.length);
        }

        @Override
        public synchronized void flush() {
            flushes++;
        }
    }

    /** Runs qemu-io against nbd://127.0.0.1:port with the given commands; returns its output. */
    static String qemuIo(int port, String... commands) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("qemu-io", "-f", "raw"));
        for (String c : commands) {
            cmd.add("-c");
            cmd.add(c);
        }
        cmd.add("nbd://127.0.0.1:" + port);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "qemu-io ended: " + out);
        assertEquals(0, p.exitValue(), "qemu-io " + String.join(" ", commands) + ":\n" + out);
        assertFalse(out.contains("failed") || out.contains("error"), out);
        return out;
    }

    @Test
    void qemuIo_writesReadsAndVerifiesPatterns() throws Exception {
        MemoryDisk disk = new MemoryDisk();
        try (NbdServer server = NbdServer.start(disk, InetAddress.getLoopbackAddress(), 0)) {
            String out = qemuIo(
                    server.port(),
                    "write -P 0xab 0 64k",
                    "write -P 0xcd 1m 4k",
                    "write -P 0x5a 8380416 8192",
                    "flush",
                    "read -P 0xab 0 64k",
                    "read -P 0xcd 1m 4k",
                    "read -P 0x5a 8380416 8192",
                    "read -P 0 64k 4k",
                    "discard 2m 64k");
            assertTrue(out.contains("wrote 65536/65536 bytes"), out);
            assertTrue(out.contains("read 8192/8192 bytes"), out);
            byte[] ab = new byte[65536];
            Arrays.fill(ab, (byte) 0xab);
            assertArrayEquals(ab, Arrays.copyOfRange(disk.bytes, 0, 65536), "the disk holds what qemu-io wrote");
            assertEquals((byte) 0xcd, disk.bytes[(1 << 20) + 4095]);
            assertEquals(0, disk.bytes[(1 << 20) + 4096]);
            assertTrue(disk.flushes >= 1, "flush reached the disk");
            // A second client sees the first one's writes.
            qemuIo(server.port(), "read -P 0xcd 1m 4k");
        }
    }

    @Test
    void requestsPastTheEnd_failForTheClient_andTheServerServesOn() throws Exception {
        MemoryDisk disk = new MemoryDisk();
        try (NbdServer server = NbdServer.start(disk, InetAddress.getLoopbackAddress(), 0)) {
            List<String> cmd =
                    List.of("qemu-io", "-f", "raw", "-c", "read 8388608 4k", "nbd://127.0.0.1:" + server.port());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertTrue(
                    out.toLowerCase().contains("error") || out.contains("Input/output") || out.contains("Invalid"),
                    "a read past the end fails: " + out);
            qemuIo(server.port(), "write -P 0x11 0 512", "read -P 0x11 0 512");
        }
    }
}
