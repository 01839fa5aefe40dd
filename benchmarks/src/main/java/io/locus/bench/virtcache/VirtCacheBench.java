package io.locus.bench.virtcache;

import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.client.RedirectState;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.interference.EmulatedServers;
import io.locus.gluster.virtcache.interference.FioInterferer;
import io.locus.gluster.virtcache.interference.FioReadv;
import io.locus.gluster.virtcache.interference.ServerBudget;
import io.locus.gluster.virtcache.replay.CloudPhysicsTrace;
import io.locus.gluster.virtcache.replay.Replayer;
import io.locus.gluster.virtcache.replay.TraceRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus bench virtcache}: a segment of the CloudPhysics trace replayed one request at a time against a victim
 * disk, without and then with a competing fio job on the disk's brick, through plain libgfapi, plain libgfapi on a
 * volume with Gluster's own io-cache and read-ahead translators on, write off-loading only (writes to the log, reads
 * from the primary unless the log holds a newer copy: the Everest-style baseline) and VirtCache (hot reads from the log
 * as well). Each mode has its own disk; each disk is replayed once unmeasured so that the translator learns its hot
 * blocks, once more so that VirtCache's data logger copies them to the log (the bench waits until it is done), then
 * measured in {@code --rounds} rounds, the modes taking turns within each round so that a change of the
 * machine's load falls on all of them alike. Under interference the redirecting modes are redirected when fio has
 * started, and drained afterwards; then, in {@code --detector-rounds}, VirtCache's own detector and policy decide
 * ({@link DetectorRounds}: how long from fio's start to the redirection and from its end to normal). Last, the two
 * at-most-5% overhead targets from paired rounds in turns, each decided by the bootstrap interval of its median ratio
 * ({@link PairedRatios}): VirtCache not redirected vs plain libgfapi, and fio's readv (4 KiB random reads) on a volume
 * with the translator vs one without.
 *
 * <p>With {@code --servers emulated} (the default where cgroup v1 is usable) each volume's brick and the fio process
 * run as separate servers ({@link EmulatedServers}: a CPU quota and a disk throttle each), and the victim disks are
 * opened O_DIRECT, so that their reads and writes reach the throttled disk of their brick's server; {@code
 * --cpu-shares} also weights every group, and a group of its own for this JVM, against the machine's other processes.
 * The paired overhead rounds run after the emulation is removed.
 *
 * <p>Arguments: DIR TRACE XLATOR [SKIP [REQUESTS]] (defaults 20,000 and 1,000: a stretch of the trace with reads and
 * writes mixed).
 */
@Command(
        name = "virtcache-bench",
        mixinStandardHelpOptions = true,
        description = "Trace replay against a victim disk, alone and with a competing fio job on its brick.")
public final class VirtCacheBench implements Callable<Integer> {
    @Parameters(index = "0", description = "scratch directory for the bricks")
    private Path dir;

    @Parameters(index = "1", description = "the CloudPhysics trace (CSV)")
    private Path trace;

    @Parameters(index = "2", description = "the built translator, virtcache.so")
    private Path xlator;

    @Parameters(
            index = "3",
            arity = "0..1",
            defaultValue = "20000",
            description = "trace requests to skip (default ${DEFAULT-VALUE})")
    private int skip;

    @Parameters(
            index = "4",
            arity = "0..1",
            defaultValue = "1000",
            description = "requests to replay (default ${DEFAULT-VALUE})")
    private int count;

    @Option(
            names = "--rounds",
            defaultValue = "5",
            description = "measured replays per mode and interference (default ${DEFAULT-VALUE})")
    private int rounds;

    @Option(
            names = "--readv-rounds",
            defaultValue = "30",
            description = "pairs of fio readv runs, one with the translator on and one with it off, in turns (on off,"
                    + " off on, ...); 0 leaves them out (default ${DEFAULT-VALUE})")
    private int readvRounds;

    @Option(
            names = "--readv-together",
            defaultValue = "30",
            description = "pairs of fio readv jobs, one on the translator's volume and one on a volume without it, run"
                    + " at once by one fio process (so both meet the same load of the machine); 0 leaves them out"
                    + " (default ${DEFAULT-VALUE})")
    private int readvTogether;

    @Option(
            names = "--pairs",
            defaultValue = "30",
            description = "pairs of short closed-loop replays, plain libgfapi and VirtCache not redirected, in turns"
                    + " (A B, B A, ...), for VirtCache's overhead; 0 leaves them out (default ${DEFAULT-VALUE})")
    private int pairs;

    @Option(
            names = "--pair-requests",
            defaultValue = "500",
            description =
                    "requests per replay in those pairs, from the start of the segment (default" + " ${DEFAULT-VALUE})")
    private int pairRequests;

    @Option(
            names = "--rate",
            defaultValue = "0",
            description =
                    "offer the measured replays open loop at this many requests/s, the same for every mode (latency"
                            + " counted from each request's due time); 0: closed loop, each request when the previous returned"
                            + " (default ${DEFAULT-VALUE})")
    private double rate;

    @Option(
            names = "--detector-rounds",
            defaultValue = "3",
            description = "rounds in which VirtCache's own detector decides (fio started and stopped while the victim"
                    + " replays and its client polls); 0 leaves them out (default ${DEFAULT-VALUE})")
    private int detectorRounds;

    @Option(
            names = "--detector-rate",
            defaultValue = "200",
            description = "requests/s offered open loop to the victim in the detector rounds: the policy judges the"
                    + " end of a peak by the disk's own I/O rate, which a closed loop would change with every"
                    + " redirection (default ${DEFAULT-VALUE})")
    private double detectorRate;

    @Option(
            names = "--cpu-shares",
            defaultValue = "0",
            description = "with emulated servers, the weight (cgroup v1 cpu.shares) of every emulated server's group"
                    + " and of a group of its own for this JVM, the victims' client, against the machine's other"
                    + " processes (1024 each); 0 leaves the kernel's default (default ${DEFAULT-VALUE})")
    private long cpuShares;

    /** How the servers of the bricks are laid out. */
    enum Servers {
        /** emulated if cgroup v1 is usable here, else shared */
        auto,
        /** each brick and fio in a cgroup of its own with its own budget; victim disks opened O_DIRECT */
        emulated,
        /** every brick on the machine's cores, disk and page cache; victim disks opened buffered */
        shared
    }

    @Option(
            names = "--servers",
            defaultValue = "auto",
            description = "emulated: each brick (victim disks, io-cache volume, log) and fio run in a cgroup v1 group"
                    + " of their own with their own CPU quota and disk throttle, as separate servers, and the victim"
                    + " disks are opened O_DIRECT; shared: all on this machine's cores, disk and page cache; auto:"
                    + " emulated if cgroups are usable, else shared (default ${DEFAULT-VALUE})")
    private Servers servers;

    static final int B = 65536;
    static final long DISK_BYTES = 256L << 20;
    static final int READV_SECONDS = 2;
    /** Long enough for thousands of perf samples of the brick. */
    static final int PROFILED_READV_SECONDS = 8;
    /** "At most 5% overhead": the other side's throughput at least 0.95 times the reference's. */
    static final double OVERHEAD_FLOOR = 0.95;

    static final double CONFIDENCE = 0.95;
    /** The brick's detector on the victim disks' volume: a sample every 200 ms, an evaluation every 5 (1 s). */
    static final int DETECTOR_INTERVAL_MS = 200;

    static final int DETECTOR_SAMPLES = 5;
    static final String PLAIN = "plain libgfapi";
    static final String CACHED = "plain libgfapi, io-cache and read-ahead on";
    static final String OFFLOAD = "write off-loading only";
    static final String VIRTCACHE = "VirtCache";
    static final List<String> MODES = List.of(PLAIN, CACHED, OFFLOAD, VIRTCACHE);

    public static void main(String[] args) {
        System.exit(new CommandLine(new VirtCacheBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<TraceRequest> all = CloudPhysicsTrace.read(trace, skip + count, DISK_BYTES);
        List<TraceRequest> requests = all.subList(Math.min(skip, all.size()), all.size());
        long reads = requests.stream().filter(r -> !r.write()).count();
        System.out.printf(
                "trace %s, requests %,d to %,d (%,d: %d%% reads), folded into a %d MiB disk, one at a time, %s,"
                        + " %d rounds per mode%n",
                trace.getFileName(),
                skip,
                skip + requests.size(),
                requests.size(),
                100 * reads / requests.size(),
                DISK_BYTES >> 20,
                rate > 0 ? String.format("offered open loop at %,.0f requests/s", rate) : "closed loop",
                rounds);
        System.out.println("interference: " + FioInterferer.DESCRIPTION);
        boolean emulate = emulateServers();
        System.out.println("load average at start: " + loadAverage());

        Map<String, Totals> alone = new LinkedHashMap<>();
        Map<String, Totals> interfered = new LinkedHashMap<>();
        Totals redirectedAlone;
        List<DetectorRounds.Round> detector = List.of();
        List<FioReadv.Result> readvOn = new ArrayList<>();
        List<FioReadv.Result> readvOff = new ArrayList<>();
        List<Double> overheadRatios = new ArrayList<>();
        BrickProfile.Outcome readvProfile = null;
        List<FioReadv.Result> togetherOn = new ArrayList<>();
        List<FioReadv.Result> togetherOff = new ArrayList<>();
        try (io.locus.gluster.fixture.GlusterVolume disks = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench")
                        .userTranslator(UserTranslator.abovePosix("virtcache", xlator))
                        .option("user.xlator.virtcache.count-writes", "off")
                        .option("user.xlator.virtcache.detector-interval", Integer.toString(DETECTOR_INTERVAL_MS))
                        .option("user.xlator.virtcache.detector-samples", Integer.toString(DETECTOR_SAMPLES))
                        // One victim keeps one fop in flight and fio's four jobs more; the brick's budget is half a
                        // core, not a 16-way array.
                        .option("user.xlator.virtcache.detector-parallel-io", "2")
                        .option("user.xlator.virtcache.detector-low-load-depth", "1")
                        .start();
                io.locus.gluster.fixture.GlusterVolume cachedDisks = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench-cached")
                        .userTranslator(UserTranslator.abovePosix("virtcache", xlator))
                        .option("user.xlator.virtcache.count-writes", "off")
                        .option("performance.io-cache", "on")
                        .option("performance.read-ahead", "on")
                        .start();
                io.locus.gluster.fixture.GlusterVolume logs = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench-log")
                        .start();
                GlusterVolume primary = GlusterVolume.connect(disks.server(), disks.name(), disks.gfapiLog());
                GlusterVolume cached =
                        GlusterVolume.connect(cachedDisks.server(), cachedDisks.name(), cachedDisks.gfapiLog());
                GlusterVolume log = GlusterVolume.connect(logs.server(), logs.name(), logs.gfapiLog());
                EmulatedServers emulation = emulate ? EmulatedServers.create(EmulatedServers.CGROUP_ROOT, dir) : null) {
            ServerBudget server = ServerBudget.SERVER.withShares(cpuShares);
            if (emulation != null) {
                emulation.add(DISKS_SERVER, server, disks.brickPids().get(0));
                emulation.add(CACHED_SERVER, server, cachedDisks.brickPids().get(0));
                emulation.add(LOG_SERVER, server, logs.brickPids().get(0));
                if (cpuShares > 0) {
                    emulation.add(
                            VICTIMS_CLIENT,
                            ServerBudget.UNLIMITED.withShares(cpuShares),
                            ProcessHandle.current().pid());
                }
            }
            FioInterferer.CommandWrapper fioServer = emulation == null
                    ? c -> c
                    : c -> emulation.wrap(FIO_CLIENT, ServerBudget.CLIENT.withShares(cpuShares), c);
            List<Victim> victims = new ArrayList<>();
            for (String mode : MODES) {
                GlusterVolume volume = mode.equals(CACHED) ? cached : primary;
                victims.add(Victim.open(mode, volume, log, "/victim-" + victims.size() + ".img", emulate));
            }
            for (Victim v : victims) {
                Replayer.run(requests, v, n -> {});
                v.learnHotBlocks();
                alone.put(v.mode, new Totals());
                interfered.put(v.mode, new Totals());
            }
            // One more unmeasured replay each: VirtCache's reads of the hot blocks queue them for its data logger,
            // which copies them in the background. Measuring only once it is done keeps its one-off copying out of
            // the other modes' rounds; its duration is reported instead.
            for (Victim v : victims) {
                Replayer.run(requests, v, n -> {});
            }
            Victim virtCache = victims.get(MODES.indexOf(VIRTCACHE));
            long loggerStart = System.nanoTime();
            while (!virtCache.client.disk().dataLoggerIdle()) {
                if (System.nanoTime() - loggerStart > 300_000_000_000L) {
                    throw new IllegalStateException("VirtCache's data logger still busy after 300 s");
                }
                Thread.sleep(50);
            }
            System.out.printf(
                    "  VirtCache's data logger: %,d hot blocks copied to the log, idle %.1f s after the replay%n",
                    virtCache.client.disk().loggedOnRead(), (System.nanoTime() - loggerStart) / 1e9);
            long loggedBefore = virtCache.client.disk().loggedOnRead();
            long disksBrick = disks.brickPids().get(0);
            long logBrick = logs.brickPids().get(0);
            PhaseUsage usage = PhaseUsage.now(disksBrick, logBrick);
            for (int round = 0; round < rounds; round++) {
                for (Victim v : victims) {
                    alone.get(v.mode).replay(requests, v, rate);
                }
                System.out.printf("  alone, round %d done%n", round + 1);
            }
            System.out.println(PhaseUsage.now(disksBrick, logBrick).since(usage, "alone"));
            System.out.printf(
                    "  VirtCache's data logger copied %,d blocks again during these rounds (hot blocks the trace also"
                            + " wrote, whose logged copies the writes made stale)%n",
                    virtCache.client.disk().loggedOnRead() - loggedBefore);
            // VirtCache redirected with no interference: what the redirected path itself costs (a request split into
            // block parts, the log volume's brick), apart from what interference does.
            redirectedAlone = new Totals();
            virtCache.redirect();
            usage = PhaseUsage.now(disksBrick, logBrick);
            for (int round = 0; round < rounds; round++) {
                redirectedAlone.replay(requests, virtCache, rate);
            }
            System.out.println(PhaseUsage.now(disksBrick, logBrick).since(usage, "VirtCache redirected, alone"));
            virtCache.drain();
            System.out.printf("  VirtCache redirected without interference, %d rounds done, drained%n", rounds);
            long copiedBefore = virtCache.client.disk().copiedWhileWarming();
            List<Victim> onDisks =
                    victims.stream().filter(v -> !v.mode.equals(CACHED)).toList();
            Counters before = Counters.of(emulation, victims);
            try (FioInterferer fio = FioInterferer.start(disks, "/interferer.img", 120_000_000_000L, fioServer)) {
                long[] cpuPids = {
                    fio.pid(),
                    ProcessHandle.current().pid(),
                    disks.brickPids().get(0),
                    logs.brickPids().get(0)
                };
                double[] cpuBefore = cpuSeconds(cpuPids);
                long phaseStart = System.nanoTime();
                for (Victim v : onDisks) {
                    v.redirect();
                }
                System.out.printf(
                        "  VirtCache warmed before redirecting: %,d hot blocks whose logged copies writes had made"
                                + " stale copied from the contended primary to the log%n",
                        virtCache.client.disk().copiedWhileWarming() - copiedBefore);
                usage = PhaseUsage.now(disksBrick, logBrick);
                for (int round = 0; round < rounds; round++) {
                    for (Victim v : onDisks) {
                        interfered.get(v.mode).replay(requests, v, rate);
                    }
                    System.out.printf("  with fio on the disks' brick, round %d done%n", round + 1);
                }
                System.out.println(PhaseUsage.now(disksBrick, logBrick).since(usage, "with fio"));
                System.out.println("  fio still running at the end: " + fio.isAlive());
                double[] cpuAfter = cpuSeconds(cpuPids);
                double phase = (System.nanoTime() - phaseStart) / 1e9;
                System.out.printf(
                        "  cores used during these rounds (CPU seconds / %.1f s): fio %.2f, this bench's JVM (the"
                                + " victims' client) %.2f, the disks' brick %.2f, the log's brick %.2f; load average"
                                + " now %s%n",
                        phase,
                        (cpuAfter[0] - cpuBefore[0]) / phase,
                        (cpuAfter[1] - cpuBefore[1]) / phase,
                        (cpuAfter[2] - cpuBefore[2]) / phase,
                        (cpuAfter[3] - cpuBefore[3]) / phase,
                        loadAverage());
            }
            Counters.of(emulation, victims).printSince(before);
            for (Victim v : onDisks) {
                v.drain();
            }
            if (detectorRounds > 0) {
                detector = DetectorRounds.run(
                        virtCache.client,
                        virtCache,
                        requests,
                        detectorRate,
                        detectorRounds,
                        () -> FioInterferer.start(disks, "/interferer.img", 120_000_000_000L, fioServer));
            }
            try (FioInterferer fio = FioInterferer.start(cachedDisks, "/interferer.img", 120_000_000_000L, fioServer)) {
                Victim v = victims.get(MODES.indexOf(CACHED));
                for (int round = 0; round < rounds; round++) {
                    interfered.get(v.mode).replay(requests, v, rate);
                }
                System.out.println(
                        "  with fio on the io-cache volume's brick: done; fio still running: " + fio.isAlive());
            }
            for (Victim v : victims) {
                v.drain();
            }
            if (emulation != null) {
                // The client's and the translator's costs are a matter of CPU: under the budgets both sides of a pair
                // would meet the same cap, and its stalls would only widen the interval.
                emulation.close();
                System.out.println("  emulated servers removed before the paired overhead rounds and fio readv");
            }
            Victim plainVictim = victims.get(MODES.indexOf(PLAIN));
            List<TraceRequest> pairSegment = requests.subList(0, Math.min(pairRequests, requests.size()));
            if (pairs > 0) {
                // Unmeasured, as the readv pairs' first.
                requestsPerSecond(pairSegment, plainVictim);
                requestsPerSecond(pairSegment, virtCache);
            }
            for (int pair = 0; pair < pairs; pair++) {
                double plainRate;
                double virtCacheRate;
                if (pair % 2 == 0) {
                    plainRate = requestsPerSecond(pairSegment, plainVictim);
                    virtCacheRate = requestsPerSecond(pairSegment, virtCache);
                } else {
                    virtCacheRate = requestsPerSecond(pairSegment, virtCache);
                    plainRate = requestsPerSecond(pairSegment, plainVictim);
                }
                overheadRatios.add(virtCacheRate / plainRate);
            }
            if (pairs > 0) {
                System.out.printf(
                        "  1 unmeasured warm-up pair and %d pairs of %,d requests, plain libgfapi and VirtCache in turns,"
                                + " done%n",
                        pairs, pairSegment.size());
            }
            for (Victim v : victims) {
                v.drainAndClose();
            }
            if (readvRounds > 0 || readvTogether > 0) {
                readvProfile = readv(readvOn, readvOff, togetherOn, togetherOff);
            }
        }
        System.out.println("load average at end: " + loadAverage());
        System.out.println();
        System.out.println("| mode | interference | requests/s | p50 µs | p90 µs | p99 µs | p90 / p90 alone |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String mode : MODES) {
            Totals a = alone.get(mode);
            Totals i = interfered.get(mode);
            System.out.println(row(mode, "none", a, a));
            System.out.println(row(mode, "fio on the brick", i, a));
            if (mode.equals(VIRTCACHE)) {
                System.out.println(row(mode, "none, redirected to the log", redirectedAlone, a));
            }
        }
        System.out.println();
        System.out.println("where the time went: each round's p90, and the time inside the disk call alone (what the"
                + " request took once it began; in open loop the latency adds its wait behind the requests before"
                + " it):");
        System.out.println();
        System.out.println("| mode | interference | p90 µs per round | p90 µs inside the call | requests over 10 ms"
                + " (latency / inside the call) | longest call µs |");
        System.out.println("|---|---|---|---|---|---|");
        for (String mode : MODES) {
            System.out.println(where(mode, "none", alone.get(mode)));
            System.out.println(where(mode, "fio on the brick", interfered.get(mode)));
            if (mode.equals(VIRTCACHE)) {
                System.out.println(where(mode, "none, redirected to the log", redirectedAlone));
            }
        }
        Totals plain = alone.get(PLAIN);
        Totals vc = alone.get(VIRTCACHE);
        System.out.println();
        System.out.printf(
                "without interference VirtCache serves %.2f× plain libgfapi's requests/s, at %.2f× its p50 and %.2f×"
                        + " its p90 (its overhead when not redirected)%n",
                vc.requestsPerSecond() / plain.requestsPerSecond(),
                (double) vc.percentile(50) / plain.percentile(50),
                (double) vc.percentile(90) / plain.percentile(90));
        System.out.printf(
                "under interference VirtCache's p90 is %s× its p90 alone and %s× plain libgfapi's under the same"
                        + " interference%n",
                times((double) interfered.get(VIRTCACHE).percentile(90) / vc.percentile(90)),
                times((double) interfered.get(VIRTCACHE).percentile(90)
                        / interfered.get(PLAIN).percentile(90)));
        printDetector(detector);
        printReadv(readvOn, readvOff, "in turns", null);
        printReadv(togetherOn, togetherOff, "at once (both jobs in one fio process)", readvProfile);
        printTargets(overheadRatios, readvOn, readvOff, togetherOn, togetherOff);
        return 0;
    }

    /** A ratio with two decimals, or two significant digits when it is below 0.01 (not rounded to 0.00). */
    private static String times(double ratio) {
        return String.format(ratio >= 0.01 ? "%.2f" : "%.2g", ratio);
    }

    /** The detector rounds: each, then the median and the largest of each column. */
    private void printDetector(List<DetectorRounds.Round> rounds) {
        if (rounds.isEmpty()) {
            return;
        }
        System.out.println();
        System.out.printf(
                "VirtCache's own detector deciding: the victim offered %,.0f requests/s open loop, its client polling"
                        + " every %d ms (default policy); fio started, stopped %d s after the client redirected; the"
                        + " brick's detector samples every %d ms and evaluates every %d samples; times in s as the"
                        + " polls saw them:%n",
                detectorRate,
                DetectorRounds.POLL_MILLIS,
                DetectorRounds.HOLD_NANOS / 1_000_000_000L,
                DETECTOR_INTERVAL_MS,
                DETECTOR_SAMPLES);
        System.out.println();
        System.out.println("| round | fio start → brick says interfered | fio start → client redirected | fio end →"
                + " client normal, drained | redirections while fio ran | block reads from the log / primary while"
                + " fio ran |");
        System.out.println("|---|---|---|---|---|---|");
        for (int i = 0; i < rounds.size(); i++) {
            DetectorRounds.Round r = rounds.get(i);
            System.out.printf(
                    "| %d | %s | %s | %s | %d | %,d / %,d |%n",
                    i + 1,
                    secondsOrNot(r.toInterfered()),
                    secondsOrNot(r.toRedirected()),
                    secondsOrNot(r.toNormal()),
                    r.redirections(),
                    r.readsFromLog(),
                    r.readsFromPrimary());
        }
        for (String which : List.of("median", "max")) {
            System.out.printf(
                    "| %s | %s | %s | %s | | |%n",
                    which,
                    secondsOrNot(summary(which, rounds, DetectorRounds.Round::toInterfered)),
                    secondsOrNot(summary(which, rounds, DetectorRounds.Round::toRedirected)),
                    secondsOrNot(summary(which, rounds, DetectorRounds.Round::toNormal)));
        }
        System.out.println();
        System.out.println("the victim's p90 in those rounds, µs, before fio, while fio ran (the reaction included) and"
                + " while it ran once the client had redirected; latency from each request's due time, and the time"
                + " inside the call alone:");
        System.out.println();
        System.out.println("| round | latency alone | with fio | once redirected | call alone | with fio | once"
                + " redirected | call with fio / alone | once redirected / alone |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (int i = 0; i < rounds.size(); i++) {
            DetectorRounds.Round r = rounds.get(i);
            System.out.printf(
                    "| %d | %,d | %,d | %,d | %,d | %,d | %,d | %s | %s |%n",
                    i + 1,
                    r.p90Alone(),
                    r.p90WithFio(),
                    r.p90Redirected(),
                    r.callP90Alone(),
                    r.callP90WithFio(),
                    r.callP90Redirected(),
                    times(callRatioWithFio(r)),
                    times(callRatioRedirected(r)));
        }
        for (String which : List.of("median", "max")) {
            System.out.printf(
                    "| %s | | | | | | | %s | %s |%n",
                    which,
                    times(summary(which, rounds, VirtCacheBench::callRatioWithFio)),
                    times(summary(which, rounds, VirtCacheBench::callRatioRedirected)));
        }
    }

    private static double callRatioWithFio(DetectorRounds.Round r) {
        return (double) r.callP90WithFio() / r.callP90Alone();
    }

    private static double callRatioRedirected(DetectorRounds.Round r) {
        return (double) r.callP90Redirected() / r.callP90Alone();
    }

    private static double summary(
            String which,
            List<DetectorRounds.Round> rounds,
            java.util.function.ToDoubleFunction<DetectorRounds.Round> f) {
        double[] v = rounds.stream().mapToDouble(f).toArray();
        return which.equals("median") ? DetectorRounds.median(v) : DetectorRounds.max(v);
    }

    /** The two at-most-5% targets, each decided by the bootstrap interval of its median paired ratio. */
    private void printTargets(
            List<Double> overheadRatios,
            List<FioReadv.Result> readvOn,
            List<FioReadv.Result> readvOff,
            List<FioReadv.Result> togetherOn,
            List<FioReadv.Result> togetherOff) {
        List<Double> readvRatios = ratios(readvOn, readvOff);
        List<Double> togetherRatios = ratios(togetherOn, togetherOff);
        if (overheadRatios.size() < 2 && readvRatios.size() < 2 && togetherRatios.size() < 2) {
            return;
        }
        System.out.println();
        System.out.printf(
                "the at-most-5%% overhead targets, paired rounds in turns (A B, B A, ...) or, where the row says"
                        + " so, both at once, with the emulated servers removed; median of the paired ratios of throughput, B over A, and its %.0f%% bootstrap"
                        + " interval (%,d resamples of the pairs); met if the whole interval is at or above %.2f, not"
                        + " met if it is below, undecided if it straddles %.2f:%n",
                100 * CONFIDENCE, PairedRatios.RESAMPLES, OVERHEAD_FLOOR, OVERHEAD_FLOOR);
        System.out.println();
        System.out.println("| target | pairs | median ratio | 95% interval | verdict |");
        System.out.println("|---|---|---|---|---|");
        if (overheadRatios.size() >= 2) {
            System.out.println(target(
                    "VirtCache not redirected (B) vs plain libgfapi (A), requests/s, " + pairRequests
                            + " requests closed loop per replay",
                    PairedRatios.of(overheadRatios, CONFIDENCE, 1)));
        }
        if (readvRatios.size() >= 2) {
            System.out.println(target(
                    "translator on (B) vs off (A), fio readv reads/s, " + READV_SECONDS + " s per run",
                    PairedRatios.of(readvRatios, CONFIDENCE, 2)));
        }
        if (togetherRatios.size() >= 2) {
            System.out.println(target(
                    "translator on (B) vs off (A), fio readv reads/s, both jobs at once, " + READV_SECONDS
                            + " s per run",
                    PairedRatios.of(togetherRatios, CONFIDENCE, 3)));
        }
    }

    /** Each pair's reads/s, on over off. */
    private static List<Double> ratios(List<FioReadv.Result> on, List<FioReadv.Result> off) {
        List<Double> r = new ArrayList<>();
        for (int i = 0; i < on.size(); i++) {
            r.add(on.get(i).iops() / off.get(i).iops());
        }
        return r;
    }

    private static String target(String what, PairedRatios p) {
        String verdict = switch (p.atLeast(OVERHEAD_FLOOR)) {
            case MET -> "met";
            case NOT_MET -> "not met";
            case UNDECIDED -> "undecided (the interval is wider than the margin and straddles " + OVERHEAD_FLOOR + ")";
        };
        return String.format(
                "| %s | %d | %.3f | %.3f to %.3f | %s |", what, p.pairs(), p.median(), p.low(), p.high(), verdict);
    }

    private static double requestsPerSecond(List<TraceRequest> segment, Victim v) throws IOException {
        return Replayer.run(segment, v, n -> {}).requestsPerSecond();
    }

    private static String secondsOrNot(double s) {
        return Double.isNaN(s)
                ? "not within " + DetectorRounds.BOUND_NANOS / 1_000_000_000L + " s"
                : String.format("%.2f", s);
    }

    /** The translator's cost on fio's readv: each round, and the ratios of the sums. */
    private static void printReadv(
            List<FioReadv.Result> readvOn, List<FioReadv.Result> readvOff, String how, BrickProfile.Outcome profile) {
        if (readvOn.isEmpty()) {
            printProfile(profile);
            return;
        }
        System.out.println();
        System.out.println(
                "translator on vs off " + how + ", " + FioReadv.DESCRIPTION + ", " + READV_SECONDS + " s per run:");
        System.out.println();
        System.out.println("| pair | reads/s on | reads/s off | p90 µs on | p90 µs off |");
        System.out.println("|---|---|---|---|---|");
        for (int round = 0; round < readvOn.size(); round++) {
            FioReadv.Result on = readvOn.get(round);
            FioReadv.Result off = readvOff.get(round);
            System.out.printf(
                    "| %d | %,.0f | %,.0f | %,.0f | %,.0f |%n",
                    round + 1, on.iops(), off.iops(), on.p90Micros(), off.p90Micros());
        }
        double iopsOn = readvOn.stream().mapToDouble(FioReadv.Result::iops).sum();
        double iopsOff = readvOff.stream().mapToDouble(FioReadv.Result::iops).sum();
        double p90On = readvOn.stream().mapToDouble(FioReadv.Result::p90Micros).sum();
        double p90Off =
                readvOff.stream().mapToDouble(FioReadv.Result::p90Micros).sum();
        System.out.println();
        System.out.printf(
                "translator on vs off on fio readv %s: %.3f× the reads/s, %.3f× the p90%n",
                how, iopsOn / iopsOff, p90On / p90Off);
        double cpuOn = medianCpuPerRead(readvOn);
        double cpuOff = medianCpuPerRead(readvOff);
        System.out.printf(
                "the brick's CPU per read (its threads' run time over a run, fio's connect and open included, / the"
                        + " reads fio counted), median of the runs: %.1f µs on, %.1f µs off, %.3f× (%+.1f µs a read)%n",
                cpuOn / 1000, cpuOff / 1000, cpuOn / cpuOff, (cpuOn - cpuOff) / 1000);
        printProfile(profile);
    }

    private static void printProfile(BrickProfile.Outcome profile) {
        if (profile == null) {
            return;
        }
        if (profile.share() == null) {
            System.out.println("the translator's share of its brick's CPU: not measured, " + profile.failure());
            return;
        }
        TranslatorShare share = profile.share();
        StringBuilder kinds = new StringBuilder();
        share.byKind().forEach((kind, n) -> kinds.append(String.format(", %s %.2f%%", kind, share.percent(n))));
        System.out.printf(
                "the translator's share of its brick's CPU in one more readv run, of %d s (perf record --call-graph dwarf -F"
                        + " %d on the brick; a sample is the translator's when it is the innermost translator on the"
                        + " stack, libc, kernel and Gluster's allocator and logging counting for their caller):"
                        + " virtcache.so and what it calls %.2f%% of %,d samples%s%n",
                PROFILED_READV_SECONDS, BrickProfile.FREQUENCY, share.percent(), share.samples(), kinds);
    }

    /**
     * The translator on vs off under fio readv, on two volumes made for it alike (fresh bricks on the same disk,
     * the fixture's default options) but for the translator, with its default options, on one of them: pairs in
     * turns, pairs at once, and one more run of the translator's volume with its brick under perf. Fills the lists
     * and returns the profile.
     */
    private BrickProfile.Outcome readv(
            List<FioReadv.Result> readvOn,
            List<FioReadv.Result> readvOff,
            List<FioReadv.Result> togetherOn,
            List<FioReadv.Result> togetherOff)
            throws IOException, InterruptedException {
        BrickProfile.Outcome profile;
        try (io.locus.gluster.fixture.GlusterVolume on = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench-readv-on")
                        .userTranslator(UserTranslator.abovePosix("virtcache", xlator))
                        .start();
                io.locus.gluster.fixture.GlusterVolume off = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench-readv-off")
                        .start()) {
            long onPid = on.brickPids().get(0);
            long offPid = off.brickPids().get(0);
            LongSupplier onBrick = () -> CpuWait.of(onPid).runNanos();
            LongSupplier offBrick = () -> CpuWait.of(offPid).runNanos();
            // Unmeasured: fio lays each file out and both bricks open it and fill their caches on a first run.
            FioReadv.run(on, "/readv.img", READV_SECONDS);
            FioReadv.run(off, "/readv.img", READV_SECONDS);
            // Each run starts once the previous one's reads are over, while that fio still shuts its engine down
            // (seconds in glfs_fini, idle); results are collected in order, two runs behind.
            ArrayDeque<PendingReadv> pending = new ArrayDeque<>();
            try {
                for (int pair = 0; pair < readvRounds; pair++) {
                    for (int side = 0; side < 2; side++) {
                        boolean translator = (side == 0) == (pair % 2 == 0);
                        FioReadv.Run run = translator
                                ? FioReadv.start(on, "/readv.img", READV_SECONDS, onBrick)
                                : FioReadv.start(off, "/readv.img", READV_SECONDS, offBrick);
                        pending.add(new PendingReadv(run, translator ? readvOn : readvOff));
                        while (pending.size() > 2) {
                            pending.poll().collect();
                        }
                    }
                }
                while (!pending.isEmpty()) {
                    pending.poll().collect();
                }
            } finally {
                pending.forEach(p -> p.run().close());
            }
            if (readvRounds > 0) {
                System.out.printf(
                        "  1 unmeasured warm-up pair and %d pairs of fio readv, translator on and off in turns, done%n",
                        readvRounds);
            }
            // Both jobs in one fio process, the translator's first in every other pair; each pair starts once the
            // previous one's reads are over, as above.
            FioReadv.Run previous = null;
            try {
                for (int pair = 0; pair < readvTogether; pair++) {
                    boolean onFirst = pair % 2 == 0;
                    FioReadv.Run run = FioReadv.startTogether(
                            onFirst ? List.of(on, off) : List.of(off, on),
                            "/readv.img",
                            READV_SECONDS,
                            onFirst ? List.of(onBrick, offBrick) : List.of(offBrick, onBrick));
                    if (previous != null) {
                        collectTogether(previous, pair - 1, togetherOn, togetherOff);
                    }
                    previous = run;
                }
                if (previous != null) {
                    collectTogether(previous, readvTogether - 1, togetherOn, togetherOff);
                    previous = null;
                }
            } finally {
                if (previous != null) {
                    previous.close();
                }
            }
            if (readvTogether > 0) {
                System.out.printf("  %d pairs of fio readv jobs, translator on and off at once, done%n", readvTogether);
            }
            profile = BrickProfile.during(
                    onPid, dir, "virtcache.so", () -> FioReadv.run(on, "/readv.img", PROFILED_READV_SECONDS));
            System.out.printf(
                    "  one more readv run of %d s with the translator on, its brick under perf record, done%n",
                    PROFILED_READV_SECONDS);
        }
        return profile;
    }

    /** Waits for a pair of jobs run at once (the translator's first in even pairs) and files their results. */
    private static void collectTogether(FioReadv.Run run, int pair, List<FioReadv.Result> on, List<FioReadv.Result> off)
            throws IOException, InterruptedException {
        try (run) {
            List<FioReadv.Result> r = run.results();
            on.add(r.get(pair % 2 == 0 ? 0 : 1));
            off.add(r.get(pair % 2 == 0 ? 1 : 0));
        }
    }

    /** A fio readv run whose reads are over, and the list its result goes to. */
    private record PendingReadv(FioReadv.Run run, List<FioReadv.Result> into) {
        void collect() throws IOException, InterruptedException {
            try (FioReadv.Run r = run) {
                into.add(r.result());
            }
        }
    }

    /** The median over runs of the brick's CPU nanoseconds per read; NaN if no run has it. */
    private static double medianCpuPerRead(List<FioReadv.Result> runs) {
        return DetectorRounds.median(
                runs.stream().mapToDouble(FioReadv.Result::brickCpuNanosPerRead).toArray());
    }

    /**
     * Replays of one mode summed: all their latencies in one histogram, their requests and time; and, to tell where
     * a tail comes from, each replay's p90 and the time of the disk call alone (in open loop a request's latency also
     * holds its wait behind the requests before it).
     */
    private static final class Totals {
        final Histogram latencies = new Histogram(3_600_000_000L, 3);
        final Histogram inCall = new Histogram(3_600_000_000L, 3);
        final List<Long> roundP90s = new ArrayList<>();
        long requests;
        double seconds;

        void replay(List<TraceRequest> requests, Replayer.Disk disk, double rate) throws IOException {
            Histogram round = new Histogram(3_600_000_000L, 3);
            Replayer.Result r = Replayer.run(requests, new TimedDisk(disk, inCall::recordValue), n -> {}, round, rate);
            latencies.add(round);
            roundP90s.add(round.getValueAtPercentile(90));
            this.requests += r.requests();
            this.seconds += r.seconds();
        }

        /** Requests of {@code h} that took more than {@code micros}. */
        static long over(Histogram h, long micros) {
            return h.getTotalCount() - h.getCountBetweenValues(0, micros);
        }

        double requestsPerSecond() {
            return requests / seconds;
        }

        long percentile(double p) {
            return latencies.getValueAtPercentile(p);
        }
    }

    private static String where(String mode, String interference, Totals t) {
        return String.format(
                "| %s | %s | %s | %,d | %,d / %,d | %,d |",
                mode,
                interference,
                String.join(
                        ", ",
                        t.roundP90s.stream().map(p -> String.format("%,d", p)).toList()),
                t.inCall.getValueAtPercentile(90),
                Totals.over(t.latencies, 10_000),
                Totals.over(t.inCall, 10_000),
                t.inCall.getMaxValue());
    }

    private static String row(String mode, String interference, Totals r, Totals alone) {
        return String.format(
                "| %s | %s | %,.0f | %,d | %,d | %,d | %.2f |",
                mode,
                interference,
                r.requestsPerSecond(),
                r.percentile(50),
                r.percentile(90),
                r.percentile(99),
                (double) r.percentile(90) / alone.percentile(90));
    }

    static final String DISKS_SERVER = "disks";
    static final String CACHED_SERVER = "cached";
    static final String LOG_SERVER = "log";
    static final String FIO_CLIENT = "fio";
    static final String VICTIMS_CLIENT = "client";

    /** Whether to emulate separate servers, by {@code --servers}; says which and why on stdout. */
    private boolean emulateServers() {
        Optional<String> why = EmulatedServers.unusable(EmulatedServers.CGROUP_ROOT, dir);
        if (servers == Servers.emulated && why.isPresent()) {
            throw new IllegalStateException("--servers emulated: cannot emulate separate servers: " + why.get());
        }
        if (servers == Servers.shared || why.isPresent()) {
            System.out.println("servers: shared: every brick on this machine's cores, disk and page cache, victim"
                    + " disks opened buffered"
                    + why.map(w -> " (cannot emulate separate servers: " + w + ")")
                            .orElse(""));
            return false;
        }
        System.out.println("servers: emulated: the victim disks' brick, the io-cache volume's brick and the log"
                + " volume's brick each in a cgroup of their own, "
                + ServerBudget.SERVER.withShares(cpuShares).describe()
                + "; fio's process in one of its own, "
                + ServerBudget.CLIENT.withShares(cpuShares).describe()
                + (cpuShares > 0
                        ? "; this JVM (the victims' client) in one of its own, "
                                + ServerBudget.UNLIMITED.withShares(cpuShares).describe()
                        : "")
                + "; victim disks opened O_DIRECT (QEMU's cache=none), so their I/O reaches their server's throttled"
                + " disk; the log stays buffered, served from its server's page cache (the warmed cache)");
        return true;
    }

    /** What the throttles and VirtCache's client counted, to tell where the requests under interference went. */
    private record Counters(
            long disksIos,
            long logIos,
            long disksThrottled,
            long fioThrottled,
            long logThrottled,
            long fromLog,
            long fromPrimary,
            long toLog,
            boolean emulated) {
        static Counters of(EmulatedServers emulation, List<Victim> victims) throws IOException {
            var disk = victims.get(MODES.indexOf(VIRTCACHE)).client.disk();
            if (emulation == null) {
                return new Counters(
                        0, 0, 0, 0, 0, disk.readsFromLog(), disk.readsFromPrimary(), disk.writesToLog(), false);
            }
            return new Counters(
                    emulation.ioServiced(DISKS_SERVER),
                    emulation.ioServiced(LOG_SERVER),
                    emulation.throttledPeriods(DISKS_SERVER),
                    emulation.exists(FIO_CLIENT) ? emulation.throttledPeriods(FIO_CLIENT) : 0,
                    emulation.throttledPeriods(LOG_SERVER),
                    disk.readsFromLog(),
                    disk.readsFromPrimary(),
                    disk.writesToLog(),
                    true);
        }

        void printSince(Counters b) {
            long log = fromLog - b.fromLog;
            long primary = fromPrimary - b.fromPrimary;
            System.out.printf(
                    "  VirtCache redirected, under fio: %,d block reads from the log, %,d from the contended primary"
                            + " (%.0f%% from the log), %,d block writes to the log%n",
                    log, primary, 100.0 * log / Math.max(1, log + primary), toLog - b.toLog);
            if (emulated) {
                System.out.printf(
                        "  disk I/Os the throttles counted meanwhile: %,d on the disks' server, %,d on the log's;"
                                + " CPU quotas held back the disks' server in %,d periods, the log's in %,d, fio in %,d%n",
                        disksIos - b.disksIos,
                        logIos - b.logIos,
                        disksThrottled - b.disksThrottled,
                        logThrottled - b.logThrottled,
                        fioThrottled - b.fioThrottled);
            }
        }
    }

    /** User and system CPU seconds of each process so far (/proc/PID/stat, in clock ticks of 1/100 s); 0 if gone. */
    private static double[] cpuSeconds(long[] pids) {
        double[] out = new double[pids.length];
        for (int i = 0; i < pids.length; i++) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pids[i]), "stat"));
                // Fields after the command name, which is in parentheses and may hold spaces.
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                out[i] = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
            } catch (IOException | RuntimeException e) {
                out[i] = 0;
            }
        }
        return out;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One victim disk: plain libgfapi (with or without Gluster's caches), or a VirtCache client redirecting hot reads and writes, or writes only. */
    private static final class Victim implements Replayer.Disk {
        final String mode;
        final GlusterVolume primary;
        final String path;
        final GlusterFile file;
        final VirtCacheClient client;

        private Victim(String mode, GlusterVolume primary, String path, GlusterFile file, VirtCacheClient client) {
            this.mode = mode;
            this.primary = primary;
            this.path = path;
            this.file = file;
            this.client = client;
        }

        static Victim open(String mode, GlusterVolume primary, GlusterVolume log, String path, boolean direct)
                throws IOException {
            try (GlusterFile f = primary.create(path)) {
                f.truncate(DISK_BYTES);
            }
            if (mode.equals(PLAIN) || mode.equals(CACHED)) {
                return new Victim(
                        mode, primary, path, direct ? primary.openDirect(path) : primary.open(path, true), null);
            }
            return new Victim(mode, primary, path, null, VirtCacheClient.open(primary, log, path, B, direct));
        }

        /** Ends the translator's window, so that its filter holds the blocks the unmeasured replay read most. */
        void learnHotBlocks() throws IOException {
            if (client != null) {
                primary.setxattr(path, "trusted.virtcache.rotate", new byte[] {'1'});
                client.refreshHotBlocks();
                if (mode.equals(OFFLOAD)) {
                    client.disk().setHotBlocks(b -> false);
                }
            }
        }

        void redirect() throws IOException {
            if (client == null) {
                return;
            }
            client.startRedirect();
            while (client.state() == RedirectState.WARMING) {
                client.warm(1024);
            }
        }

        void drainAndClose() throws IOException {
            if (client == null) {
                file.close();
                return;
            }
            drain();
            client.close();
        }

        /** Ends the redirection, if any, and drains the log back to the primary. */
        void drain() throws IOException {
            if (client == null || client.state() == RedirectState.NORMAL) {
                return;
            }
            client.endRedirect();
            while (client.state() == RedirectState.DRAINING) {
                client.drain(256);
            }
        }

        @Override
        public byte[] read(long offset, int length) throws IOException {
            return client != null ? client.read(offset, length) : file.read(offset, length);
        }

        @Override
        public void write(long offset, byte[] data) throws IOException {
            if (client != null) {
                client.write(offset, data);
            } else {
                file.write(offset, data);
            }
        }
    }
}
