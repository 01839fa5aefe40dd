package io.locus.gluster.virtcache.bench;

import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.client.RedirectState;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.interference.FioInterferer;
import io.locus.gluster.virtcache.replay.CloudPhysicsTrace;
import io.locus.gluster.virtcache.replay.Replayer;
import io.locus.gluster.virtcache.replay.TraceRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus bench virtcache}: a segment of the CloudPhysics trace replayed one request at a time against a victim
 * disk, without and then with a competing fio job on the disk's brick, through plain libgfapi, write off-loading only
 * (writes to the log, reads from the primary unless the log holds a newer copy: the Everest-style baseline) and
 * VirtCache (hot reads from the log as well). Each mode has its own disk; each disk is replayed once unmeasured so that
 * the translator learns its hot blocks, then measured. Under interference the redirecting modes are redirected when
 * fio has started (the detector's own reaction is what {@code InterferenceIT} tests), and drained afterwards.
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

    static final int B = 65536;
    static final long DISK_BYTES = 256L << 20;
    static final List<String> MODES = List.of("plain libgfapi", "write off-loading only", "VirtCache");

    public static void main(String[] args) {
        System.exit(new CommandLine(new VirtCacheBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        List<TraceRequest> all = CloudPhysicsTrace.read(trace, skip + count, DISK_BYTES);
        List<TraceRequest> requests = all.subList(Math.min(skip, all.size()), all.size());
        long reads = requests.stream().filter(r -> !r.write()).count();
        System.out.printf(
                "trace %s, requests %,d to %,d (%,d: %d%% reads), folded into a %d MiB disk, one at a time%n",
                trace.getFileName(),
                skip,
                skip + requests.size(),
                requests.size(),
                100 * reads / requests.size(),
                DISK_BYTES >> 20);
        System.out.println("interference: " + FioInterferer.DESCRIPTION);
        System.out.println("load average at start: " + loadAverage());

        Map<String, Replayer.Result> alone = new LinkedHashMap<>();
        Map<String, Replayer.Result> interfered = new LinkedHashMap<>();
        try (io.locus.gluster.fixture.GlusterVolume disks = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench")
                        .userTranslator(UserTranslator.abovePosix("virtcache", xlator))
                        .option("user.xlator.virtcache.count-writes", "off")
                        .start();
                io.locus.gluster.fixture.GlusterVolume logs = io.locus.gluster.fixture.GlusterVolume.builder(dir)
                        .name("locus-vcbench-log")
                        .start();
                GlusterVolume primary = GlusterVolume.connect(disks.server(), disks.name(), disks.gfapiLog());
                GlusterVolume log = GlusterVolume.connect(logs.server(), logs.name(), logs.gfapiLog())) {
            List<Victim> victims = new ArrayList<>();
            for (int i = 0; i < MODES.size(); i++) {
                victims.add(Victim.open(MODES.get(i), primary, log, "/victim-" + i + ".img"));
            }
            for (Victim v : victims) {
                Replayer.run(requests, v, n -> {});
                v.learnHotBlocks();
                alone.put(v.mode, Replayer.run(requests, v, n -> {}));
                System.out.printf(
                        "  %s alone: %.1f s%n", v.mode, alone.get(v.mode).seconds());
            }
            try (FioInterferer fio = FioInterferer.start(disks, "/interferer.img", 120_000_000_000L)) {
                for (Victim v : victims) {
                    v.redirect();
                    interfered.put(v.mode, Replayer.run(requests, v, n -> {}));
                    System.out.printf(
                            "  %s with fio: %.1f s%n",
                            v.mode, interfered.get(v.mode).seconds());
                }
                System.out.println("fio still running at the end: " + fio.isAlive());
            }
            for (Victim v : victims) {
                v.drainAndClose();
            }
        }
        System.out.println("load average at end: " + loadAverage());
        System.out.println();
        System.out.println("| mode | interference | requests/s | p50 µs | p90 µs | p99 µs | p90 / p90 alone |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String mode : MODES) {
            Replayer.Result a = alone.get(mode);
            Replayer.Result i = interfered.get(mode);
            System.out.println(row(mode, "none", a, a));
            System.out.println(row(mode, "fio on the brick", i, a));
        }
        Replayer.Result plain = interfered.get(MODES.get(0));
        Replayer.Result vc = interfered.get("VirtCache");
        System.out.printf(
                "%nunder interference, VirtCache's p90 is %.2f× plain libgfapi's; without interference VirtCache's p50"
                        + " is %.2f× plain's (its overhead when not redirected)%n",
                (double) vc.p90Micros() / plain.p90Micros(),
                (double) alone.get("VirtCache").p50Micros()
                        / alone.get(MODES.get(0)).p50Micros());
        return 0;
    }

    private static String row(String mode, String interference, Replayer.Result r, Replayer.Result alone) {
        return String.format(
                "| %s | %s | %,.0f | %,d | %,d | %,d | %.2f |",
                mode,
                interference,
                r.requestsPerSecond(),
                r.p50Micros(),
                r.p90Micros(),
                r.p99Micros(),
                (double) r.p90Micros() / alone.p90Micros());
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** One victim disk: plain libgfapi, or a VirtCache client redirecting hot reads and writes, or writes only. */
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

        static Victim open(String mode, GlusterVolume primary, GlusterVolume log, String path) throws IOException {
            try (GlusterFile f = primary.create(path)) {
                f.truncate(DISK_BYTES);
            }
            if (mode.equals("plain libgfapi")) {
                return new Victim(mode, primary, path, primary.open(path, true), null);
            }
            return new Victim(mode, primary, path, null, VirtCacheClient.open(primary, log, path, B));
        }

        /** Ends the translator's window, so that its filter holds the blocks the unmeasured replay read most. */
        void learnHotBlocks() throws IOException {
            if (client != null) {
                primary.setxattr(path, "trusted.virtcache.rotate", new byte[] {'1'});
                client.refreshHotBlocks();
                if (mode.equals("write off-loading only")) {
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
            client.endRedirect();
            while (client.state() == RedirectState.DRAINING) {
                client.drain(256);
            }
            client.close();
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
