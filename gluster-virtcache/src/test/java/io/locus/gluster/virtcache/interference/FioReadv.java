package io.locus.gluster.virtcache.interference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * fio's libgfapi engine reading a file at random, 4 KiB at a time, one request in flight, for a fixed time: what a
 * brick translator costs each readv. The result is fio's own count and completion-latency percentile.
 */
public final class FioReadv {
    public static final String DESCRIPTION =
            "fio --ioengine=gfapi, 1 job of 4 KiB random reads (readv), direct=1, iodepth 1, on a 64 MiB file";

    /** What one run measured: reads per second and the 90th percentile of completion latency. */
    public record Result(double iops, double p90Micros) {}

    private FioReadv() {}

    /**
     * Runs the job on {@code file} of {@code volume} for {@code seconds} (after fio laid the file out) and returns
     * fio's numbers.
     *
     * @throws IllegalStateException with the tail of fio's log if it fails or runs past twice its time plus a minute
     */
    public static Result run(GlusterVolume volume, String file, int seconds) throws IOException, InterruptedException {
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
        try (HostProcess fio = HostProcess.start("fio-readv", command, log)) {
            long deadline = System.nanoTime() + (2L * seconds + 60) * 1_000_000_000L;
            while (fio.isAlive()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "fio readv still running after " + (2 * seconds + 60) + " s: " + Fio.tail(log));
                }
                Thread.sleep(100);
            }
            if (fio.exitCode() != 0 || !Files.exists(json)) {
                throw new IllegalStateException("fio readv exited " + fio.exitCode() + ": " + Fio.tail(log));
            }
        }
        JsonNode read =
                new ObjectMapper().readTree(json.toFile()).path("jobs").path(0).path("read");
        JsonNode p90 = read.path("clat_ns").path("percentile").path("90.000000");
        if (!read.has("iops") || !p90.isNumber()) {
            throw new IllegalStateException(json + " has no jobs[0].read.iops or clat_ns.percentile 90.000000");
        }
        return new Result(read.path("iops").asDouble(), p90.asDouble() / 1000);
    }
}
