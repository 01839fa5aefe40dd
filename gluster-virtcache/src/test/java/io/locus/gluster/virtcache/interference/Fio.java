package io.locus.gluster.virtcache.interference;

import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * fio's command line for a job with its libgfapi engine on a file of a volume. fio's engine logs to a fixed /tmp path:
 * the command runs fio in a mount namespace of its own whose /tmp is this run's temporary directory, so nothing lands
 * outside the build's directory.
 */
final class Fio {
    private Fio() {}

    /** The command for job {@code name} on {@code file} (a path in the volume) with the job's own options. */
    static List<String> command(GlusterVolume volume, String name, String file, List<String> options)
            throws IOException {
        Path tmp = tmp(volume);
        Files.createDirectories(tmp);
        // From /tmp, as files fio writes to its working directory (an exec_postrun's output) land there too.
        List<String> command = new ArrayList<>(List.of(
                "unshare",
                "--mount",
                "sh",
                "-c",
                "mount --bind \"$0\" /tmp && cd /tmp && exec \"$@\"",
                tmp.toString(),
                "fio",
                "--name=" + name,
                "--ioengine=gfapi",
                "--volume=" + volume.name(),
                "--brick=" + volume.server(),
                "--filename=" + file.substring(1)));
        command.addAll(options);
        return command;
    }

    /** The directory fio sees as /tmp. */
    static Path tmp(GlusterVolume volume) {
        return HostProcess.privateTmp()
                .orElse(volume.directory().resolve("tmp"))
                .toAbsolutePath();
    }

    /** The last 20 lines of a log. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }
}
