package io.locus.gluster.virtcache.interference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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

    private static final AtomicInteger RUNS = new AtomicInteger();

    private FioReadv() {}

    /**
     * Runs the job on {@code file} of {@code volume} for {@code seconds} (after fio laid the file out) and returns
     * fio's numbers.
     *
     * @throws IllegalStateException with the tail of fio's log if it fails or runs past twice its time plus a minute
     */
    public static Result run(GlusterVolume volume, String file, int seconds) throws IOException, InterruptedException {
        try (Run run = start(volume, file, seconds, () -> 0L)) {
            return run.result();
        }
    }

    /**
     * Starts the job and returns once its reads are over, reading {@code brickCpu} (the brick's CPU nanoseconds so
     * far) when fio starts and when its reads end, so the result says what the brick spent meanwhile (fio's connect,
     * open and, on a first run, the file's layout included). fio's libgfapi engine then spends seconds in
     * {@code glfs_fini}, idle after its first moment; the caller may start the next run meanwhile and collect this
     * one's numbers with {@link Run#result()}.
     *
     * @throws IllegalStateException with the tail of fio's log if its reads have not ended within twice its time plus
     *     a minute
     */
    public static Run start(GlusterVolume volume, String file, int seconds, LongSupplier brickCpu)
            throws IOException, InterruptedException {
        String id = volume.name() + "-" + RUNS.incrementAndGet();
        Path json = volume.directory().resolve("fio-readv-" + id + ".json");
        String marker = "fio-readv-" + id + ".done";
        Path done = Fio.tmp(volume).resolve(marker);
        Files.deleteIfExists(json);
        Files.deleteIfExists(done);
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
                        // Runs after the job's I/O and before its engine's cleanup (glfs_fini).
                        "--exec_postrun=touch /tmp/" + marker,
                        "--output-format=json",
                        "--output=" + json.toAbsolutePath()));
        Path log = volume.directory().resolve("fio-readv-" + id + ".log");
        long cpuBefore = brickCpu.getAsLong();
        HostProcess fio = HostProcess.start("fio-readv", command, log);
        long deadline = System.nanoTime() + (2L * seconds + 60) * 1_000_000_000L;
        try {
            while (!Files.exists(done) && fio.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "fio readv still reading after " + (2 * seconds + 60) + " s: " + Fio.tail(log));
                }
                Thread.sleep(20);
            }
        } catch (RuntimeException | InterruptedException e) {
            fio.close();
            throw e;
        }
        long cpuAfter = brickCpu.getAsLong();
        return new Run(fio, json, log, deadline, cpuBefore > 0 && cpuAfter > 0 ? cpuAfter - cpuBefore : 0);
    }

    /** A started run whose reads are over; its process may still be shutting its engine down. */
    public static final class Run implements AutoCloseable {
        private final HostProcess fio;
        private final Path json;
        private final Path log;
        private final long deadline;
        private final long brickCpuNanos;

        private Run(HostProcess fio, Path json, Path log, long deadline, long brickCpuNanos) {
            this.fio = fio;
            this.json = json;
            this.log = log;
            this.deadline = deadline;
            this.brickCpuNanos = brickCpuNanos;
        }

        /**
         * Waits for fio to exit and returns its numbers.
         *
         * @throws IllegalStateException with the tail of fio's log if it fails, writes no result, or runs past twice
         *     its time plus a minute
         */
        public Result result() throws IOException, InterruptedException {
            while (fio.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("fio readv still running past its deadline: " + Fio.tail(log));
                }
                Thread.sleep(20);
            }
            if (fio.exitCode() != 0 || !Files.exists(json)) {
                throw new IllegalStateException("fio readv exited " + fio.exitCode() + ": " + Fio.tail(log));
            }
            JsonNode read = new ObjectMapper()
                    .readTree(json.toFile())
                    .path("jobs")
                    .path(0)
                    .path("read");
            JsonNode p90 = read.path("clat_ns").path("percentile").path("90.000000");
            if (!read.has("iops") || !read.has("total_ios") || !p90.isNumber()) {
                throw new IllegalStateException(
                        json + " has no jobs[0].read.iops, read.total_ios or read.clat_ns.percentile 90.000000");
            }
            return new Result(
                    read.path("iops").asDouble(),
                    p90.asDouble() / 1000,
                    read.path("total_ios").asLong(),
                    brickCpuNanos);
        }

        /** Stops fio if it still runs. */
        @Override
        public void close() {
            fio.close();
        }
    }
}
