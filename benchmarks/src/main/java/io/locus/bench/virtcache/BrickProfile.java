package io.locus.bench.virtcache;

import io.locus.fixture.HostProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Linux perf on a brick process while an action runs: {@code perf record --call-graph dwarf} attached to the process,
 * then {@code perf script}, read by {@link TranslatorShare}. Where perf is missing or may not attach, the result says
 * why instead.
 */
final class BrickProfile {
    /** Samples per second; enough for thousands of samples in a run of a few seconds. */
    static final int FREQUENCY = 2000;

    /** The action profiled. */
    interface Action {
        void run() throws IOException, InterruptedException;
    }

    /** The translator's share, or why there is none. */
    record Outcome(TranslatorShare share, String failure) {}

    private BrickProfile() {}

    /**
     * Records brick process {@code pid} while {@code action} runs, into files under {@code dir}, and returns
     * {@code translator}'s share of its samples.
     */
    static Outcome during(long pid, Path dir, String translator, Action action)
            throws IOException, InterruptedException {
        Path data = dir.resolve("perf-brick.data");
        Path log = dir.resolve("perf-brick.log");
        Files.deleteIfExists(data);
        HostProcess perf;
        try {
            perf = HostProcess.start(
                    "perf-record",
                    List.of(
                            "perf",
                            "record",
                            "--call-graph",
                            "dwarf,16384",
                            "-F",
                            Integer.toString(FREQUENCY),
                            "-p",
                            Long.toString(pid),
                            "-o",
                            data.toString()),
                    log);
        } catch (RuntimeException e) {
            action.run();
            return new Outcome(null, "perf could not be started (" + e.getMessage() + ")");
        }
        try (perf) {
            Thread.sleep(500); // attached by then: it prints nothing when it is
            action.run();
            if (!perf.isAlive()) {
                return new Outcome(null, "perf record exited " + perf.exitCode() + ": " + tail(log));
            }
            perf.stop(Duration.ofSeconds(60)); // SIGTERM: perf writes out what it recorded
        }
        if (!Files.exists(data) || Files.size(data) == 0) {
            return new Outcome(null, "perf record wrote nothing: " + tail(log));
        }
        Path script = dir.resolve("perf-brick.txt");
        Process p = new ProcessBuilder("perf", "script", "-i", data.toString(), "-F", "ip,sym,dso")
                .redirectOutput(script.toFile())
                .redirectError(dir.resolve("perf-script.log").toFile())
                .start();
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Outcome(null, "perf script still running after 300 s");
        }
        if (p.exitValue() != 0) {
            return new Outcome(
                    null, "perf script exited " + p.exitValue() + ": " + tail(dir.resolve("perf-script.log")));
        }
        Files.delete(data); // tens of MiB of stacks; the script keeps what was read from them
        return new Outcome(TranslatorShare.of(Files.readString(script, StandardCharsets.UTF_8), translator), null);
    }

    private static String tail(Path log) {
        try {
            String text = Files.readString(log, StandardCharsets.UTF_8).strip();
            return text.substring(Math.max(0, text.length() - 300));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
