package io.locus.demo.virtcache;

import io.locus.gluster.fixture.GlusterVolume;
import io.locus.gluster.fixture.UserTranslator;
import io.locus.gluster.virtcache.cli.VirtCacheCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./locus demo}'s VirtCache part: two real volumes (the disks' with the translator, the log's), the
 * translator's view of a disk after a trace replay, the CloudPhysics trace replayed with VirtCache off, on, and on
 * with the disk redirected then drained, and a {@code qemu-io} round trip through the NBD export.
 *
 * <p>Arguments: DIR (volumes and logs), TRACE, REQUESTS. Exit 0, or 1 if a step failed.
 */
public final class VirtCacheDemo {
    private VirtCacheDemo() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String trace = args[1];
        String requests = args[2];
        int failed = 0;
        try (GlusterVolume disks = GlusterVolume.builder(dir)
                        .name("locus-vcdemo")
                        .userTranslator(UserTranslator.abovePosix(
                                "virtcache", Path.of(args.length > 3 ? args[3] : "target/xlator/virtcache.so")))
                        .start();
                GlusterVolume log =
                        GlusterVolume.builder(dir).name("locus-vcdemo-log").start()) {
            String[] where = {"--server", disks.server(), "--volume", disks.name()};
            System.out.println("VirtCache: volume " + disks.name() + " with the virtcache translator above posix"
                    + " (brick log: virtcache loaded), log volume " + log.name());
            List<String[]> rows = new ArrayList<>();
            for (String[] mode : List.of(
                    new String[] {"/off.img", "--virtcache", "off"},
                    new String[] {"/on.img", "--virtcache", "on", "--log-volume", log.name()},
                    new String[] {"/redirected.img", "--virtcache", "on", "--log-volume", log.name(), "--redirect"})) {
                List<String> a = new ArrayList<>(List.of(
                        "replay",
                        "--no-progress",
                        "--trace",
                        trace,
                        "--limit",
                        requests,
                        "--disk-size",
                        Long.toString(256L << 20),
                        "--file",
                        mode[0]));
                a.addAll(List.of(where));
                a.addAll(List.of(mode).subList(1, mode.length));
                String[] out = run(a.toArray(String[]::new));
                failed |= out[0].equals("0") ? 0 : 1;
                rows.add(new String[] {
                    String.join(" ", List.of(mode).subList(1, mode.length))
                            .replace("--log-volume " + log.name(), "")
                            .trim(),
                    out[1].trim()
                });
            }
            System.out.println();
            System.out.println("Trace replay (CloudPhysics VM disk, first " + requests + " requests, one at a time; no"
                    + " interference is emulated yet):");
            for (String[] r : rows) {
                System.out.println("  " + r[0] + ":");
                for (String line : r[1].split("\n")) {
                    System.out.println("    " + line);
                }
            }
            String[] hot = run(concat(new String[] {"hot", "--file", "/redirected.img"}, where));
            failed |= hot[0].equals("0") ? 0 : 1;
            System.out.println();
            System.out.println("The translator's view of /redirected.img after its replay (./locus virtcache hot):");
            for (String line : hot[1].split("\n")) {
                System.out.println("  " + line);
            }

            VirtCacheCommand.Serving serving = VirtCacheCommand.serveInBackground(
                    concat(new String[] {"--file", "/off.img", "--log-volume", log.name(), "--port", "0"}, where));
            try {
                int port = serving.port();
                Process q = new ProcessBuilder(
                                "qemu-io",
                                "-f",
                                "raw",
                                "-c",
                                "write -P 0x5a 1m 64k",
                                "-c",
                                "read -P 0x5a 1m 64k",
                                "nbd://127.0.0.1:" + port)
                        .redirectErrorStream(true)
                        .start();
                String out = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                boolean ok = q.waitFor(60, TimeUnit.SECONDS) && q.exitValue() == 0 && !out.contains("fail");
                failed |= ok ? 0 : 1;
                System.out.println();
                System.out.println("qemu-io through the NBD export (./locus virtcache serve) of /off.img: "
                        + (ok ? "OK" : "FAILED"));
                for (String line : out.split("\n")) {
                    System.out.println("  " + line);
                }
            } finally {
                serving.stop();
            }
        } catch (Exception e) {
            System.out.println("VirtCache demo FAILED: " + e);
            e.printStackTrace();
            failed = 1;
        }
        System.exit(failed);
    }

    /** Exit code and stdout (stderr appended if it failed) of one CLI run. */
    private static String[] run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        picocli.CommandLine cl = VirtCacheCommand.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new String[] {Integer.toString(code), code == 0 ? out.toString() : out + err.toString()};
    }

    private static String[] concat(String[] a, String[] b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
