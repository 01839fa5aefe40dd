package io.locus.bench.virtcache;

import io.locus.gluster.virtcache.client.RedirectPolicy;
import io.locus.gluster.virtcache.client.RedirectState;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.replay.Replayer;
import io.locus.gluster.virtcache.replay.TraceRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * VirtCache deciding by itself: the victim replays the trace open loop without pause while its client polls the
 * brick's verdict on a fixed schedule ({@link VirtCacheClient#poll}, the default {@link RedirectPolicy}), and in each
 * round a competing fio job is started on the brick and, some seconds after the client has redirected, stopped. Per
 * round: the time from fio's start to the first poll that saw the brick's verdict {@code interfered} and to the first
 * that found the client redirected (warming done), the time from fio's end to the client back to normal with its log
 * drained, how often it began a redirection while fio ran, and the victim's p90 before fio, while fio ran (the
 * reaction time included) and while fio ran once the client had redirected, each also for the time inside the call
 * alone (without the wait behind earlier requests that an open loop adds after a stall). Times are as the polls saw them, so they are whole poll periods.
 */
final class DetectorRounds {
    static final long POLL_MILLIS = 250;
    static final int POLL_BATCH = 16;
    static final long ALONE_NANOS = 5_000_000_000L;
    static final long HOLD_NANOS = 10_000_000_000L;
    static final long BOUND_NANOS = 90_000_000_000L;

    /** Starts the competing workload; closing it stops it. */
    @FunctionalInterface
    interface Interferer {
        AutoCloseable start() throws Exception;
    }

    /** One round's times in seconds (NaN: not within the bound), p90s in µs, block reads by where served. */
    record Round(
            double toInterfered,
            double toRedirected,
            double toNormal,
            int redirections,
            long p90Alone,
            long p90WithFio,
            long p90Redirected,
            long callP90Alone,
            long callP90WithFio,
            long callP90Redirected,
            long readsFromLog,
            long readsFromPrimary) {}

    /** What one poll saw, at {@code nanos}. */
    private record Event(long nanos, boolean interfered, RedirectPolicy.Action action, RedirectState state) {}

    private final List<Event> events = new ArrayList<>();
    private volatile Exception pollFailure;
    private volatile Exception loadFailure;
    private volatile boolean stop;
    private final Recorder latencies = new Recorder(3);
    private final Recorder calls = new Recorder(3);

    private DetectorRounds() {}

    /**
     * Runs {@code rounds} rounds of {@code requests} offered at {@code rate} per second to {@code client} (through
     * {@code disk}), with {@code interferer} as the competing job.
     */
    static List<Round> run(
            VirtCacheClient client,
            Replayer.Disk disk,
            List<TraceRequest> requests,
            double rate,
            int rounds,
            Interferer interferer)
            throws Exception {
        return new DetectorRounds().rounds(client, disk, requests, rate, rounds, interferer);
    }

    private List<Round> rounds(
            VirtCacheClient client,
            Replayer.Disk disk,
            List<TraceRequest> requests,
            double rate,
            int rounds,
            Interferer interferer)
            throws Exception {
        Thread load = new Thread(
                () -> {
                    try {
                        while (!stop) {
                            Replayer.run(
                                    requests,
                                    new TimedDisk(disk, calls::recordValue),
                                    n -> {},
                                    new Histogram(3_600_000_000L, 3),
                                    rate,
                                    latencies::recordValue);
                        }
                    } catch (IOException | RuntimeException e) {
                        loadFailure = e;
                    }
                },
                "detector-rounds-load");
        ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detector-rounds-poll");
            t.setDaemon(true);
            return t;
        });
        // The first poll's rate would span the time since the client was opened: it only sets the poll clock, and
        // the policy starts afresh after it, so that its baseline is the disk's rate at the offered load.
        client.poll(POLL_BATCH);
        client.setPolicy(RedirectPolicy.DEFAULTS);
        load.start();
        poller.scheduleWithFixedDelay(() -> poll(client), POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
        List<Round> out = new ArrayList<>();
        try {
            for (int round = 0; round < rounds; round++) {
                await(
                        "the client on its primary with the brick reporting normal before round " + (round + 1),
                        System.nanoTime(),
                        e -> e.state() == RedirectState.NORMAL && !e.interfered());
                sleep(ALONE_NANOS);
                long p90Alone = latencies.getIntervalHistogram().getValueAtPercentile(90);
                long callP90Alone = calls.getIntervalHistogram().getValueAtPercentile(90);
                long fromLog = client.disk().readsFromLog();
                long fromPrimary = client.disk().readsFromPrimary();
                double toInterfered;
                double toRedirected;
                Histogram withFio;
                Histogram redirectedOnly;
                Histogram callsWithFio;
                Histogram callsRedirected;
                long fioEnd;
                long fioStart;
                try (AutoCloseable fio = interferer.start()) {
                    fioStart = System.nanoTime();
                    latencies.getIntervalHistogram();
                    calls.getIntervalHistogram();
                    toInterfered = seconds(fioStart, await(null, fioStart, Event::interfered));
                    Optional<Long> redirected = await(null, fioStart, e -> e.state() == RedirectState.REDIRECTED);
                    toRedirected = seconds(fioStart, redirected);
                    // The latencies until the redirection, then those of the redirected rest of fio's run.
                    withFio = latencies.getIntervalHistogram();
                    callsWithFio = calls.getIntervalHistogram();
                    sleep(HOLD_NANOS);
                    fioEnd = System.nanoTime();
                    redirectedOnly = latencies.getIntervalHistogram();
                    callsRedirected = calls.getIntervalHistogram();
                }
                long callP90Redirected = callsRedirected.getValueAtPercentile(90);
                callsWithFio.add(callsRedirected);
                long callP90WithFio = callsWithFio.getValueAtPercentile(90);
                withFio.add(redirectedOnly);
                long p90WithFio = withFio.getValueAtPercentile(90);
                long p90Redirected = redirectedOnly.getValueAtPercentile(90);
                long readsFromLog = client.disk().readsFromLog() - fromLog;
                long readsFromPrimary = client.disk().readsFromPrimary() - fromPrimary;
                int redirections = count(fioStart, fioEnd, e -> e.action() == RedirectPolicy.Action.START_REDIRECT);
                double toNormal = seconds(fioEnd, await(null, fioEnd, e -> e.state() == RedirectState.NORMAL));
                out.add(new Round(
                        toInterfered,
                        toRedirected,
                        toNormal,
                        redirections,
                        p90Alone,
                        p90WithFio,
                        p90Redirected,
                        callP90Alone,
                        callP90WithFio,
                        callP90Redirected,
                        readsFromLog,
                        readsFromPrimary));
                System.out.printf(
                        "  detector round %d: interfered after %.2f s, redirected after %.2f s, normal %.2f s after fio"
                                + " ended; %d redirection(s) while fio ran; p90 %,d µs alone, %,d µs with fio, %,d µs"
                                + " once redirected; p90 of the call alone %,d, %,d and %,d µs%n",
                        round + 1,
                        toInterfered,
                        toRedirected,
                        toNormal,
                        redirections,
                        p90Alone,
                        p90WithFio,
                        p90Redirected,
                        callP90Alone,
                        callP90WithFio,
                        callP90Redirected);
            }
        } finally {
            poller.shutdownNow();
            poller.awaitTermination(30, TimeUnit.SECONDS);
            stop = true;
            load.join();
        }
        if (loadFailure != null) {
            throw new IOException("the victim's replay failed: " + loadFailure.getMessage(), loadFailure);
        }
        return out;
    }

    private void poll(VirtCacheClient client) {
        try {
            VirtCacheClient.Poll p = client.poll(POLL_BATCH);
            synchronized (events) {
                events.add(new Event(System.nanoTime(), p.interfered(), p.action(), p.state()));
            }
        } catch (IOException | RuntimeException e) {
            pollFailure = e;
        }
    }

    /**
     * The time of the first poll at or after {@code since} that matches, waiting for it up to {@link #BOUND_NANOS};
     * empty after the bound, or an {@link IllegalStateException} naming {@code what} if {@code what} is given.
     */
    private Optional<Long> await(String what, long since, Predicate<Event> match) throws Exception {
        long deadline = since + BOUND_NANOS;
        while (true) {
            if (pollFailure != null) {
                throw new IOException("a poll of the victim failed: " + pollFailure.getMessage(), pollFailure);
            }
            if (loadFailure != null) {
                throw new IOException("the victim's replay failed: " + loadFailure.getMessage(), loadFailure);
            }
            synchronized (events) {
                for (Event e : events) {
                    if (e.nanos() >= since && match.test(e)) {
                        return Optional.of(e.nanos());
                    }
                }
            }
            if (System.nanoTime() > deadline) {
                if (what != null) {
                    throw new IllegalStateException("no " + what + " within " + BOUND_NANOS / 1_000_000_000 + " s");
                }
                return Optional.empty();
            }
            Thread.sleep(POLL_MILLIS / 5);
        }
    }

    private int count(long from, long to, Predicate<Event> match) {
        synchronized (events) {
            return (int) events.stream()
                    .filter(e -> e.nanos() >= from && e.nanos() <= to && match.test(e))
                    .count();
        }
    }

    private static double seconds(long from, Optional<Long> at) {
        return at.map(t -> (t - from) / 1e9).orElse(Double.NaN);
    }

    private static void sleep(long nanos) throws InterruptedException {
        TimeUnit.NANOSECONDS.sleep(nanos);
    }

    /** The median of {@code values}, NaN ones left out (NaN if none is left). */
    static double median(double[] values) {
        double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).toArray();
        return v.length == 0 ? Double.NaN : PairedRatios.median(v);
    }

    /** The largest of {@code values}, NaN if any is NaN (a round that did not get there within the bound). */
    static double max(double[] values) {
        return Arrays.stream(values).anyMatch(Double::isNaN)
                ? Double.NaN
                : Arrays.stream(values).max().orElse(Double.NaN);
    }
}
