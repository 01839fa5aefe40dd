package io.locus.gluster.virtcache.cli;

import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.client.RedirectState;
import io.locus.gluster.virtcache.client.VirtCacheClient;
import io.locus.gluster.virtcache.nbd.NbdServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code serve}: export a Gluster disk file through VirtCache over NBD, for an unmodified QEMU. */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Export a disk file through VirtCache as nbd://HOST:PORT until interrupted.")
public final class ServeCommand implements Callable<Integer> {
    @Mixin
    VolumeOptions where = new VolumeOptions();

    @Option(names = "--log-volume", required = true, description = "The volume for VirtCache's log and journal.")
    String logVolume;

    @Option(
            names = "--port",
            defaultValue = "10809",
            description = "The NBD port (0: any free one). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(
            names = "--bind",
            defaultValue = "127.0.0.1",
            description = "The address to listen on. Default: ${DEFAULT-VALUE}.")
    InetAddress bind;

    @Option(
            names = "--block-size",
            defaultValue = "65536",
            description = "VirtCache's block size; must equal the translator's. Default: ${DEFAULT-VALUE}.")
    int blockSize;

    @Option(
            names = "--poll-ms",
            defaultValue = "1000",
            description =
                    "Milliseconds between VirtCache's polls of the translator's verdict, each of which may start a"
                            + " redirection, warm, end it or drain a batch of 16 blocks (0: never; the disk stays as it is)."
                            + " Default: ${DEFAULT-VALUE}.")
    long pollMillis;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** Polls done, and the last one's outcome (for tests and the operator's log). */
    volatile long polls;

    volatile VirtCacheClient.Poll lastPoll;

    /** Released to stop a server started in-process (tests); the CLI itself runs until the JVM is interrupted. */
    final CountDownLatch stop = new CountDownLatch(1);

    volatile VirtCacheClient client;
    volatile int boundPort = -1;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (GlusterVolume volume = where.connect(where.volume);
                GlusterVolume log = where.connect(logVolume);
                VirtCacheClient c = VirtCacheClient.open(volume, log, where.file, blockSize)) {
            client = c;
            while (c.state() == RedirectState.DRAINING) {
                c.drain(1024);
            }
            ScheduledExecutorService poller = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "virtcache-poll " + where.file);
                t.setDaemon(true);
                return t;
            });
            try (NbdServer server = NbdServer.start(disk(c), bind, port)) {
                boundPort = server.port();
                out.printf(
                        "serving %s:%s through VirtCache as nbd://%s:%d%n",
                        where.volume, where.file, bind.getHostAddress(), server.port());
                out.flush();
                if (pollMillis > 0) {
                    poller.scheduleWithFixedDelay(
                            () -> poll(c, spec.commandLine().getErr()), pollMillis, pollMillis, TimeUnit.MILLISECONDS);
                }
                stop.await();
            } finally {
                poller.shutdownNow();
                poller.awaitTermination(60, TimeUnit.SECONDS);
            }
        }
        return 0;
    }

    /**
     * One poll; a state change is logged on stderr, and a failed poll (the brick unreachable, say) is logged and
     * retried at the next, while the export goes on serving.
     */
    private void poll(VirtCacheClient c, PrintWriter err) {
        try {
            VirtCacheClient.Poll before = lastPoll;
            VirtCacheClient.Poll p = c.poll(16);
            lastPoll = p;
            polls++;
            if (before == null ? p.state() != RedirectState.NORMAL : before.state() != p.state()) {
                err.printf(
                        "virtcache %s: %s (brick %s, %.0f I/O per second)%n",
                        where.file, p.state(), p.interfered() ? "interfered" : "normal", p.iops());
                err.flush();
            }
        } catch (IOException | RuntimeException e) {
            err.println("virtcache " + where.file + ": poll failed: " + e.getMessage());
            err.flush();
        }
    }

    /** The export: the disk's size is read once, as NBD fixes it at the handshake anyway. */
    static NbdServer.Disk disk(VirtCacheClient c) throws IOException {
        long size = c.size();
        return new NbdServer.Disk() {
            @Override
            public long size() {
                return size;
            }

            @Override
            public byte[] read(long offset, int length) throws IOException {
                return c.read(offset, length);
            }

            @Override
            public void write(long offset, byte[] data) throws IOException {
                c.write(offset, data);
            }

            @Override
            public void flush() throws IOException {
                c.flush();
            }
        };
    }
}
