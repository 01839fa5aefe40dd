package io.locus.gluster.virtcache.replay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CloudPhysicsTraceTest {
    static final Path TRACE =
            Path.of(System.getProperty("locus.data.dir", "../data"), "cloudphysics", "cloudPhysicsIO.csv");

    @Test
    void theRealTrace_parses_withOffsetsFoldedIntoTheDisk() throws IOException {
        List<TraceRequest> all = CloudPhysicsTrace.read(TRACE, Long.MAX_VALUE, 1L << 30);
        assertEquals(113_872, all.size());
        long reads = all.stream().filter(r -> !r.write()).count();
        assertEquals(0.41, (double) reads / all.size(), 0.01, "41% reads, as the data README says");
        TraceRequest first = all.get(0);
        assertEquals(2, first.line());
        assertTrue(first.write());
        assertEquals(512, first.size());
        assertEquals(Math.floorMod(42_932_745L * 512, 1L << 30), first.offset());
        assertTrue(all.stream().allMatch(r -> r.offset() % 512 == 0 && r.offset() + r.size() <= 1L << 30));
        assertEquals(100, CloudPhysicsTrace.read(TRACE, 100, 1L << 30).size());
    }

    @Test
    void malformedLines_nameFileLineFieldAndValue(@TempDir Path dir) throws IOException {
        assertMessage(dir, "version,time,op,size\n", "line 1: header \"version,time,op,size\"");
        assertMessage(dir, CloudPhysicsTrace.HEADER + "\n1,5,2a,512\n", "line 2: 4 fields");
        assertMessage(dir, CloudPhysicsTrace.HEADER + "\n1,5,2a,512,1\n1,5,99,512,1\n", "line 3: op \"99\"");
        assertMessage(dir, CloudPhysicsTrace.HEADER + "\n1,5,28,x,1\n", "line 2: size \"x\"");
        assertMessage(dir, CloudPhysicsTrace.HEADER + "\n1,5,28,512,-3\n", "line 2: lbn \"-3\"");
        assertMessage(dir, CloudPhysicsTrace.HEADER + "\n1,5,28,0,3\n", "line 2: size 0");
        IllegalArgumentException disk =
                assertThrows(IllegalArgumentException.class, () -> CloudPhysicsTrace.read(TRACE, 1, 1000));
        assertTrue(disk.getMessage().contains("disk size 1000"), disk.getMessage());
    }

    @Test
    void replayWritesTheSameBytesEveryTime() throws IOException {
        List<TraceRequest> requests = CloudPhysicsTrace.read(TRACE, 500, 1L << 24);
        Map<Long, byte[]> a = new HashMap<>();
        Replayer.Result result = Replayer.run(
                requests,
                new Replayer.Disk() {
                    @Override
                    public byte[] read(long offset, int length) {
                        return new byte[length];
                    }

                    @Override
                    public void write(long offset, byte[] data) {
                        a.put(offset, data);
                    }
                },
                n -> {});
        assertEquals(500, result.requests());
        assertEquals(result.requests(), result.reads() + result.writes());
        assertTrue(result.p50Micros() <= result.p90Micros() && result.p90Micros() <= result.p99Micros());
        TraceRequest w =
                requests.stream().filter(TraceRequest::write).findFirst().orElseThrow();
        assertArrayEquals(Replayer.dataOf(w), Replayer.dataOf(w));
    }

    @Test
    void openLoopReplay_issuesEveryRequestInOrder_andRefusesABadRate() throws IOException {
        List<TraceRequest> requests = CloudPhysicsTrace.read(TRACE, 200, 1L << 24);
        List<Long> offsets = new java.util.ArrayList<>();
        Replayer.Disk disk = new Replayer.Disk() {
            @Override
            public byte[] read(long offset, int length) {
                offsets.add(offset);
                return new byte[length];
            }

            @Override
            public void write(long offset, byte[] data) {
                offsets.add(offset);
            }
        };
        org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3_600_000_000L, 3);
        Replayer.Result r = Replayer.run(requests, disk, n -> {}, h, 1e6);
        assertEquals(200, r.requests());
        assertEquals(200, h.getTotalCount(), "one latency per request");
        assertEquals(requests.stream().map(TraceRequest::offset).toList(), offsets);
        IllegalArgumentException bad =
                assertThrows(IllegalArgumentException.class, () -> Replayer.run(requests, disk, n -> {}, h, -5));
        assertEquals("rate -5.0 requests/s (expected: a finite value >= 0)", bad.getMessage());
    }

    private static void assertMessage(Path dir, String content, String expected) throws IOException {
        Path f = dir.resolve("t.csv");
        Files.writeString(f, content);
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> CloudPhysicsTrace.read(f, 100, 1L << 30));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("t.csv"), e.getMessage());
    }
}
