package io.locus.gluster.virtcache.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.client.VirtCacheClient.JournalSummary;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code status}: the translator's state of a disk and, with a log volume, what the client's journal holds. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Show the translator's state of a disk file and, with --log-volume, its client journal.")
final class StatusCommand implements Callable<Integer> {
    @Mixin
    VolumeOptions where = new VolumeOptions();

    @Option(names = "--log-volume", description = "The volume holding the disk's VirtCache log and journal.")
    String logVolume;

    @Mixin
    OutputOptions output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("volume", where.volume);
        root.put("file", where.file);
        try (GlusterVolume volume = where.connect(where.volume)) {
            Map<String, Object> server = new LinkedHashMap<>();
            String state = new String(volume.getxattr(where.file, "trusted.virtcache.state"), StandardCharsets.UTF_8);
            for (String line : state.split("\n")) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    server.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            root.put("translator", server);
        }
        if (logVolume != null) {
            try (GlusterVolume log = where.connect(logVolume)) {
                JournalSummary j = VirtCacheClient.inspect(log, where.file);
                Map<String, Object> client = new LinkedHashMap<>();
                client.put("logVolume", logVolume);
                client.put("journal", j != null);
                if (j != null) {
                    client.put("records", j.records());
                    client.put("loggedBlocks", j.loggedBlocks());
                    client.put("dirtyBlocks", j.dirtyBlocks());
                    client.put("nextOpen", j.dirtyBlocks() > 0 ? "DRAINING" : "NORMAL");
                }
                root.put("client", client);
            }
        }
        if (output.json) {
            out.println(JsonOutput.line(root));
        } else {
            root.forEach((k, v) -> out.println(k + ": " + v));
        }
        return 0;
    }
}
