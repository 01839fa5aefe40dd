package io.locus.gluster.virtcache.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.cli.Progress;
import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.client.RedirectState;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.replay.CloudPhysicsTrace;
import io.locus.gluster.virtcache.replay.Replayer;
import io.locus.gluster.virtcache.replay.TraceRequest;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code replay}: a VM disk trace against a Gluster file, through VirtCache or plain libgfapi. */
@Command(
        name = "replay",
        mixinStandardHelpOptions = true,
        description = "Replay a block trace (CloudPhysics CSV) against a disk file and print latency percentiles and"
                + " throughput.")
final class ReplayCommand implements Callable<Integer> {
    enum OnOff {
        on,
        off
    }

    @Mixin
    VolumeOptions where = new VolumeOptions();

    @Option(names = "--trace", required = true, description = "The trace (CSV: version,time,op,size,lbn).")
    Path trace;

    @Option(
            names = "--virtcache",
            defaultValue = "on",
            description = "Through VirtCache (on) or plain libgfapi (off). Default: ${DEFAULT-VALUE}.")
    OnOff virtcache;

    @Option(
            names = "--log-volume",
            description = "The volume for VirtCache's log and journal (needed with --virtcache on).")
    String logVolume;

    @Option(names = "--redirect", description = "Redirect the disk for the whole replay, then drain it back.")
    boolean redirect;

    @Option(
            names = "--limit",
            defaultValue = "20000",
            description = "Replay at most this many requests. Default: ${DEFAULT-VALUE}.")
    long limit;

    @Option(
            names = "--disk-size",
            defaultValue = "2147483648",
            description =
                    "Trace offsets are folded into a disk of this many bytes; a missing file is created this large (sparse). Default: ${DEFAULT-VALUE}.")
    long diskSize;

    @Option(
            names = "--block-size",
            defaultValue = "65536",
            description = "VirtCache's block size; must equal the translator's. Default: ${DEFAULT-VALUE}.")
    int blockSize;

    @Mixin
    OutputOptions output;

    @Option(names = "--no-progress", description = "No progress bar.")
    boolean noProgress;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (virtcache == OnOff.on && logVolume == null) {
            throw new ParameterException(spec.commandLine(), "--virtcache on needs --log-volume");
        }
        if (virtcache == OnOff.off && redirect) {
            throw new ParameterException(spec.commandLine(), "--redirect needs --virtcache on");
        }
        if (limit < 1) {
            throw new ParameterException(spec.commandLine(), "--limit " + limit + " (expected: >= 1)");
        }
        List<TraceRequest> requests = CloudPhysicsTrace.read(trace, limit, diskSize);
        Map<String, Object> root = new LinkedHashMap<>();
        try (GlusterVolume volume = where.connect(where.volume)) {
            ensureFile(volume);
            Replayer.Result result;
            if (virtcache == OnOff.off) {
                try (GlusterFile f = volume.open(where.file, true)) {
                    result = replay(requests, new Replayer.Disk() {
                        @Override
                        public byte[] read(long offset, int length) throws GlusterException {
                            return f.read(offset, length);
                        }

                        @Override
                        public void write(long offset, byte[] data) throws GlusterException {
                            f.write(offset, data);
                        }
                    });
                }
            } else {
                try (GlusterVolume log = where.connect(logVolume);
                        VirtCacheClient client = VirtCacheClient.open(volume, log, where.file, blockSize)) {
                    while (client.state() == RedirectState.DRAINING) {
                        client.drain(1024);
                    }
                    if (redirect) {
                        client.startRedirect();
                        client.warm(Integer.MAX_VALUE);
                    }
                    result = replay(requests, new Replayer.Disk() {
                        @Override
                        public byte[] read(long offset, int length) throws java.io.IOException {
                            return client.read(offset, length);
                        }

                        @Override
                        public void write(long offset, byte[] data) throws java.io.IOException {
                            client.write(offset, data);
                        }
                    });
                    root.put("readsFromLog", client.disk().readsFromLog());
                    root.put("writesToLog", client.disk().writesToLog());
                    root.put("loggedOnRead", client.disk().loggedOnRead());
                    if (redirect) {
                        client.endRedirect();
                        long drained = 0;
                        while (client.state() == RedirectState.DRAINING) {
                            drained += client.drain(1024);
                        }
                        root.put("drainedBlocks", drained);
                    }
                }
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("trace", trace.getFileName().toString());
            r.put("virtcache", virtcache.name());
            r.put("redirected", redirect);
            r.put("requests", result.requests());
            r.put("reads", result.reads());
            r.put("writes", result.writes());
            r.put("bytes", result.bytes());
            r.put("seconds", result.seconds());
            r.put("requestsPerSecond", result.requestsPerSecond());
            r.put("megabytesPerSecond", result.megabytesPerSecond());
            r.put("p50Micros", result.p50Micros());
            r.put("p90Micros", result.p90Micros());
            r.put("p99Micros", result.p99Micros());
            r.put("maxMicros", result.maxMicros());
            r.putAll(root);
            PrintWriter out = spec.commandLine().getOut();
            if (output.json) {
                out.println(JsonOutput.line(r));
            } else {
                out.printf(
                        "replayed %d requests (%d reads, %d writes, %.1f MB) in %.1f s: %.0f requests/s, %.1f MB/s%n",
                        result.requests(),
                        result.reads(),
                        result.writes(),
                        result.bytes() / 1e6,
                        result.seconds(),
                        result.requestsPerSecond(),
                        result.megabytesPerSecond());
                out.printf(
                        "latency p50 %d µs, p90 %d µs, p99 %d µs, max %d µs (virtcache %s%s)%n",
                        result.p50Micros(),
                        result.p90Micros(),
                        result.p99Micros(),
                        result.maxMicros(),
                        virtcache,
                        redirect ? ", redirected during the replay, then drained" : "");
            }
        }
        return 0;
    }

    private Replayer.Result replay(List<TraceRequest> requests, Replayer.Disk disk) throws java.io.IOException {
        if (noProgress) {
            return Replayer.run(requests, disk, n -> {});
        }
        try (ProgressBar bar = Progress.bar("replay", requests.size())) {
            return Replayer.run(requests, disk, bar::stepTo);
        }
    }

    private void ensureFile(GlusterVolume volume) throws GlusterException {
        try {
            volume.stat(where.file);
        } catch (GlusterException e) {
            if (e.errno() != GlusterException.ENOENT) {
                throw e;
            }
            try (GlusterFile f = volume.create(where.file)) {
                f.truncate(diskSize);
            }
        }
    }
}
