package io.locus.gluster.virtcache.interference;

import io.locus.fixture.HostProcess;
import io.locus.gluster.fixture.GlusterVolume;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;

/**
 * A competing workload on a brick: fio with its libgfapi engine, 4 jobs of 64 KiB random reads and writes with
 * O_DIRECT on a 64 MiB file of the volume, until stopped. DHT places a file by its name, so on a volume of more than
 * one brick the caller checks with {@link GlusterVolume#brickOf} that it shares the victim's brick.
 */
public final class FioInterferer implements AutoCloseable {
    public static final String DESCRIPTION =
            "fio --ioengine=gfapi, 4 jobs (threads) of 64 KiB random read/write, direct=1, on a 64 MiB file of the"
                    + " victim's brick";

    private final HostProcess fio;

    private FioInterferer(HostProcess fio) {
        this.fio = fio;
    }

    /**
     * Starts fio on {@code file} (a path in the volume, e.g. {@code /interferer.img}) and returns once fio has laid the
     * file out on the brick, when its random I/O begins.
     *
     * @throws IllegalStateException with the tail of fio's log if it exits or creates no file within {@code boundNanos}
     */
    public static FioInterferer start(GlusterVolume volume, String file, long boundNanos)
            throws IOException, InterruptedException {
        return start(volume, file, boundNanos, c -> c);
    }

    /**
     * As {@link #start(GlusterVolume, String, long)}, with fio's command line passed through {@code wrap} first (to
     * run it in a group of {@link EmulatedServers}, say).
     */
    public static FioInterferer start(GlusterVolume volume, String file, long boundNanos, CommandWrapper wrap)
            throws IOException, InterruptedException {
        List<String> command = wrap.apply(Fio.command(
                volume,
                "interferer",
                file,
                List.of(
                        "--size=64m",
                        "--bs=64k",
                        "--rw=randrw",
                        "--direct=1",
                        "--numjobs=4",
                        "--thread",
                        "--time_based",
                        "--runtime=600")));
        FioInterferer f = new FioInterferer(
                HostProcess.start("fio-interferer", command, volume.directory().resolve("fio-interferer.log")));
        long deadline = System.nanoTime() + boundNanos;
        while (volume.bricks().stream().noneMatch(b -> Files.exists(b.resolve(file.substring(1))))) {
            if (!f.fio.isAlive() || System.nanoTime() > deadline) {
                f.close();
                throw new IllegalStateException("fio created no " + file + ": " + f.logTail());
            }
            Thread.sleep(100);
        }
        return f;
    }

    /** Changes a command line, and may fail doing so. */
    @FunctionalInterface
    public interface CommandWrapper {
        List<String> apply(List<String> command) throws IOException;
    }

    /** fio's pid. */
    public long pid() {
        return fio.pid();
    }

    public boolean isAlive() {
        return fio.isAlive();
    }

    /** The last 20 lines of fio's output. */
    public String logTail() {
        return Fio.tail(fio.log());
    }

    @Override
    public void close() {
        fio.close();
    }
}
