package io.locus.gluster.virtcache.replay;

import java.io.IOException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import org.HdrHistogram.Histogram;

/**
 * Replays trace requests one after the other (closed loop: the next starts when the previous returned) against a
 * disk, and records each request's latency. Written bytes are a function of the request's trace line, so two replays
 * of one trace leave equal disks.
 */
public final class Replayer {
    /** Where the requests go. */
    public interface Disk {
        byte[] read(long offset, int length) throws IOException;

        void write(long offset, byte[] data) throws IOException;
    }

    /** A replay's outcome; latencies in microseconds. */
    public record Result(
            long requests,
            long reads,
            long writes,
            long bytes,
            double seconds,
            long p50Micros,
            long p90Micros,
            long p99Micros,
            long maxMicros) {
        public double requestsPerSecond() {
            return seconds == 0 ? 0 : requests / seconds;
        }

        public double megabytesPerSecond() {
            return seconds == 0 ? 0 : bytes / 1e6 / seconds;
        }
    }

    private Replayer() {}

    /** The bytes a write of trace line {@code line} writes. */
    public static byte[] dataOf(TraceRequest r) {
        byte[] data = new byte[r.size()];
        new Random(r.line()).nextBytes(data);
        return data;
    }

    /** Replays {@code requests}, calling {@code progress} with the count done after each. */
    public static Result run(List<TraceRequest> requests, Disk disk, LongConsumer progress) throws IOException {
        return run(requests, disk, progress, new Histogram(3_600_000_000L, 3));
    }

    /**
     * Replays {@code requests} and records each latency in microseconds into {@code h} as well, so that several
     * replays can be summarised together; the result's percentiles are those of {@code h}.
     */
    public static Result run(List<TraceRequest> requests, Disk disk, LongConsumer progress, Histogram h)
            throws IOException {
        return run(requests, disk, progress, h, 0);
    }

    /**
     * Replays {@code requests} open loop at {@code perSecond} requests per second (0: closed loop, each request as soon
     * as the previous returned), still one at a time: request i is due {@code i / perSecond} seconds after the start,
     * waits if the previous one ran past that, and its latency counts from when it was due, so that a disk that falls
     * behind the offered load shows it in its latencies. Latencies go into {@code h} as well.
     *
     * @throws IllegalArgumentException for a negative or non-finite rate
     */
    public static Result run(
            List<TraceRequest> requests, Disk disk, LongConsumer progress, Histogram h, double perSecond)
            throws IOException {
        return run(requests, disk, progress, h, perSecond, latency -> {});
    }

    /**
     * As {@link #run(List, Disk, LongConsumer, Histogram, double)}, passing each latency in microseconds to {@code
     * alsoTo} as well (a recorder that another thread reads by intervals, say).
     */
    public static Result run(
            List<TraceRequest> requests,
            Disk disk,
            LongConsumer progress,
            Histogram h,
            double perSecond,
            LongConsumer alsoTo)
            throws IOException {
        if (!(perSecond >= 0) || Double.isInfinite(perSecond)) {
            throw new IllegalArgumentException("rate " + perSecond + " requests/s (expected: a finite value >= 0)");
        }
        long reads = 0;
        long writes = 0;
        long bytes = 0;
        long t0 = System.nanoTime();
        long done = 0;
        for (TraceRequest r : requests) {
            long start = System.nanoTime();
            if (perSecond > 0) {
                long due = t0 + (long) (done * 1e9 / perSecond);
                while (start < due) {
                    LockSupport.parkNanos(due - start);
                    start = System.nanoTime();
                }
                start = due;
            }
            if (r.write()) {
                disk.write(r.offset(), dataOf(r));
                writes++;
            } else {
                disk.read(r.offset(), r.size());
                reads++;
            }
            long micros = Math.max(1, (System.nanoTime() - start) / 1000);
            h.recordValue(micros);
            alsoTo.accept(micros);
            bytes += r.size();
            progress.accept(++done);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Result(
                requests.size(),
                reads,
                writes,
                bytes,
                seconds,
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(90),
                h.getValueAtPercentile(99),
                h.getMaxValue());
    }
}
