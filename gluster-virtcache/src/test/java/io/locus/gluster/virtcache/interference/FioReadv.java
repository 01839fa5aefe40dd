package io.locus.gluster.virtcache.interference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * fio's libgfapi engine reading a file at random, 4 KiB at a time, one request in flight, for a fixed time: what a
 * brick translator costs each readv. The result is fio's own count and completion-latency percentile.
 */
public final class FioReadv {
    public static final String DESCRIPTION =
            "fio --ioengine=gfapi, 1 job of 4 KiB random reads (readv), direct=1, iodepth 1, on a 64 MiB file";

    /**
     * What one run measured: reads per second, the 90th percentile of completion latency, how many reads completed,
     * and the CPU time the volume's brick process used meanwhile (0 if it could not be read).
     */
    public record Result(double iops, double p90Micros, long reads, long brickCpuNanos) {

        /** The brick's CPU nanoseconds per read; NaN without reads or without the brick's CPU time. */
        public double brickCpuNanosPerRead() {
            return reads > 0 && brickCpuNanos > 0 ? (double) brickCpuNanos / reads : Double.NaN;
        }
    }

    private FioReadv() {}

    /**
     * Runs the job on {@code file} of {@code volume} for {@code seconds} (after fio laid the file out) and returns
     * fio's numbers.
     *
     * @throws IllegalStateException with the tail of fio's log if it fails or runs past twice its time plus a minute
     */
    public static Result run(GlusterVolume volume, String file, int seconds) throws IOException, InterruptedException {
        return run(volume, file, seconds, () -> 0L);
    }

    /**
     * As {@link #run(GlusterVolume, String, int)}, reading {@code brickCpu} (the brick's CPU nanoseconds so far)
     * when fio starts and when it ends, so the result says what the brick spent during the run (fio's layout of
     * the file included: it is laid out once, on the first run).
     */
    public static Result run(GlusterVolume volume, String file, int seconds, LongSupplier brickCpu)
            throws IOException, InterruptedException {
        Path json = volume.directory().resolve("fio-readv-" + volume.name() + ".json");
        Files.deleteIfExists(json);
        List<String> command = Fio.command(
                volume,
                "readv",
                file,
                List.of(
                        "--size=64m",
                        "--bs=4k",
                        "--rw=randread",
                        "--direct=1",
                        "--numjobs=1",
                        "--time_based",
                        "--runtime=" + seconds,
                        "--output-format=json",
                        "--output=" + json.toAbsolutePath()));
        Path log = volume.directory().resolve("fio-readv.log");
        long cpuBefore = brickCpu.getAsLong();
        long cpuAfter;
        try (HostProcess fio = HostProcess.start("fio-readv", command, log)) {
            long deadline = System.nanoTime() + (2L * seconds + 60) * 1_000_000_000L;
            while (fio.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "fio readv still running after " + (2 * seconds + 60) + " s: " + Fio.tail(log));
                }
                Thread.sleep(100);
            }
            cpuAfter = brickCpu.getAsLong();
            if (fio.exitCode() != 0 || !Files.exists(json)) {
                throw new IllegalStateException("fio readv exited " + fio.exitCode() + ": " + Fio.tail(log));
            }
        }
        JsonNode read =
                new ObjectMapper().readTree(json.toFile()).path("jobs").path(0).path("read");
        JsonNode p90 = read.path("clat_ns").path("percentile").path("90.000000");
        if (!read.has("iops") || !read.has("total_ios") || !p90.isNumber()) {
            throw new IllegalStateException(
                    json + " has no jobs[0].read.iops, read.total_ios or read.clat_ns.percentile 90.000000");
        }
        return new Result(
                read.path("iops").asDouble(),
                p90.asDouble() / 1000,
                read.path("total_ios").asLong(),
                cpuBefore > 0 && cpuAfter > 0 ? cpuAfter - cpuBefore : 0);
    }
}
