package io.locus.gluster.virtcache.interference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
        return startTogether(List.of(volume), file, seconds, List.of(brickCpu));
    }

    /**
     * As {@link #start}, with one job on {@code file} of each volume in one fio process: fio connects every job
     * first and then starts their reads at once, so each job's reads/s is measured in the same seconds as the
     * others', under the same load of the machine. Each brick's CPU is read when fio starts and when the last job's
     * reads end; {@link Run#results()} lists the jobs' results in the volumes' order.
     */
    public static Run startTogether(List<GlusterVolume> volumes, String file, int seconds, List<LongSupplier> brickCpus)
            throws IOException, InterruptedException {
        if (volumes.isEmpty() || volumes.size() != brickCpus.size()) {
            throw new IllegalArgumentException(volumes.size() + " volumes and " + brickCpus.size()
                    + " brick CPU readers (expected: as many, >= 1)");
        }
        GlusterVolume first = volumes.get(0);
        String id = first.name() + "-" + RUNS.incrementAndGet();
        Path json = first.directory().resolve("fio-readv-" + id + ".json");
        Files.deleteIfExists(json);
        List<Path> done = new ArrayList<>();
        List<String> options = new ArrayList<>();
        for (int job = 0; job < volumes.size(); job++) {
            String marker = "fio-readv-" + id + "-" + job + ".done";
            done.add(Fio.tmp(first).resolve(marker));
            Files.deleteIfExists(done.get(job));
            if (job > 0) {
                GlusterVolume v = volumes.get(job);
                options.addAll(List.of(
                        "--name=" + jobName(job),
                        "--ioengine=gfapi",
                        "--volume=" + v.name(),
                        "--brick=" + v.server(),
                        "--filename=" + file.substring(1)));
            }
            options.addAll(List.of(
                    "--size=64m",
                    "--bs=4k",
                    "--rw=randread",
                    "--direct=1",
                    "--numjobs=1",
                    "--time_based",
                    "--runtime=" + seconds,
                    // Runs after the job's I/O and before its engine's cleanup (glfs_fini).
                    "--exec_postrun=touch /tmp/" + marker));
        }
        options.addAll(List.of("--output-format=json", "--output=" + json.toAbsolutePath()));
        List<String> command = Fio.command(first, jobName(0), file, options);
        Path log = first.directory().resolve("fio-readv-" + id + ".log");
        long[] cpuBefore = brickCpus.stream().mapToLong(LongSupplier::getAsLong).toArray();
        HostProcess fio = HostProcess.start("fio-readv", command, log);
        long deadline = System.nanoTime() + (2L * seconds + 60) * 1_000_000_000L;
        try {
            while (!done.stream().allMatch(Files::exists) && fio.isAlive()) {
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
        long[] cpu = new long[volumes.size()];
        for (int job = 0; job < cpu.length; job++) {
            long after = brickCpus.get(job).getAsLong();
            cpu[job] = cpuBefore[job] > 0 && after > 0 ? after - cpuBefore[job] : 0;
        }
        return new Run(fio, json, log, deadline, cpu);
    }

    private static String jobName(int job) {
        return "readv-" + job;
    }

    /** A started run whose reads are over; its process may still be shutting its engines down. */
    public static final class Run implements AutoCloseable {
        private final HostProcess fio;
        private final Path json;
        private final Path log;
        private final long deadline;
        private final long[] brickCpuNanos;

        private Run(HostProcess fio, Path json, Path log, long deadline, long[] brickCpuNanos) {
            this.fio = fio;
            this.json = json;
            this.log = log;
            this.deadline = deadline;
            this.brickCpuNanos = brickCpuNanos;
        }

        /** The first (or only) job's result; see {@link #results()}. */
        public Result result() throws IOException, InterruptedException {
            return results().get(0);
        }

        /**
         * Waits for fio to exit and returns each job's numbers, in the order of the volumes.
         *
         * @throws IllegalStateException with the tail of fio's log if it fails, writes no result, or runs past twice
         *     its time plus a minute
         */
        public List<Result> results() throws IOException, InterruptedException {
            while (fio.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("fio readv still running past its deadline: " + Fio.tail(log));
                }
                Thread.sleep(20);
            }
            if (fio.exitCode() != 0 || !Files.exists(json)) {
                throw new IllegalStateException("fio readv exited " + fio.exitCode() + ": " + Fio.tail(log));
            }
            JsonNode jobs = new ObjectMapper().readTree(json.toFile()).path("jobs");
            List<Result> results = new ArrayList<>();
            for (int job = 0; job < brickCpuNanos.length; job++) {
                JsonNode read = null;
                for (JsonNode j : jobs) {
                    if (jobName(job).equals(j.path("jobname").asText())) {
                        read = j.path("read");
                    }
                }
                JsonNode p90 = read == null
                        ? null
                        : read.path("clat_ns").path("percentile").path("90.000000");
                if (read == null || !read.has("iops") || !read.has("total_ios") || !p90.isNumber()) {
                    throw new IllegalStateException(json + " has no job " + jobName(job)
                            + " with read.iops, read.total_ios and read.clat_ns.percentile 90.000000");
                }
                results.add(new Result(
                        read.path("iops").asDouble(),
                        p90.asDouble() / 1000,
                        read.path("total_ios").asLong(),
                        brickCpuNanos[job]));
            }
            return results;
        }

        /** Stops fio if it still runs. */
        @Override
        public void close() {
            fio.close();
        }
    }
}
