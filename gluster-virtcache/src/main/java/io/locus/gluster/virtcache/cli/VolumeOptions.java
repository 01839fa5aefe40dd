package io.locus.gluster.virtcache.cli;

import io.locus.gluster.gfapi.GlusterException;
import io.locus.gluster.gfapi.GlusterVolume;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Where the disk is: the options every subcommand shares. */
final class VolumeOptions {
    @Option(
            names = "--server",
            defaultValue = "localhost",
            description = "A server of the volume (glusterd, port 24007). Default: ${DEFAULT-VALUE}.")
    String server;

    @Option(names = "--volume", required = true, description = "The volume holding the disk file.")
    String volume;

    @Option(names = "--file", required = true, description = "The disk file, as a path in the volume (e.g. /vm1.img).")
    String file;

    @Option(
            names = "--gfapi-log",
            description = "Where libgfapi logs. Default: locus-virtcache-gfapi.log in the temporary directory.")
    Path gfapiLog;

    GlusterVolume connect(String name) throws GlusterException {
        Path log = gfapiLog != null
                ? gfapiLog
                : Path.of(System.getProperty("java.io.tmpdir"), "locus-virtcache-gfapi.log");
        return GlusterVolume.connect(server, name, log);
    }
}
