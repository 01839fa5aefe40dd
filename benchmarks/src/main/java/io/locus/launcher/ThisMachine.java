package io.locus.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** What a result header says about the machine, the JVM and the code that produced a result. */
final class ThisMachine {
    private ThisMachine() {}

    static ResultHeader header(Path root, String area, List<String> args) {
        return new ResultHeader(area, args, Instant.now(), commit(root), machine(), java(), load());
    }

    /** The commit the working tree is at, with -dirty if tracked files differ from it (result files do not count). */
    static String commit(Path root) {
        Optional<String> head = output(root, "git", "rev-parse", "--short=12", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        int clean = status(root, "git", "diff", "--quiet", "HEAD", "--", ".", ":(exclude)benchmarks/results");
        return clean == 0 ? head.get() : head.get() + "-dirty";
    }

    static String machine() {
        String cpu = firstValue(Path.of("/proc/cpuinfo"), "model name").orElse("CPU model unknown");
        String mem = firstValue(Path.of("/proc/meminfo"), "MemTotal")
                .map(v -> String.format(
                        Locale.ROOT,
                        "%.1f GiB",
                        Long.parseLong(v.replace("kB", "").strip()) / 1048576.0))
                .orElse("unknown");
        String cores = output(Path.of("."), "nproc")
                .orElse(Integer.toString(Runtime.getRuntime().availableProcessors()));
        return cores + " cores (nproc), " + cpu + ", " + mem + " memory, " + System.getProperty("os.name") + " "
                + System.getProperty("os.version");
    }

    /** As the first line of {@code java -version} says it. */
    static String java() {
        String name = System.getProperty("java.runtime.name", "").contains("OpenJDK") ? "openjdk" : "java";
        String date = System.getProperty("java.version.date", "");
        String vendorVersion = System.getProperty("java.vendor.version", "");
        String lts = vendorVersion.contains("LTS") ? " LTS" : "";
        return (name + " version \"" + System.getProperty("java.version") + "\" " + date).strip() + lts;
    }

    static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "unknown";
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static Optional<String> firstValue(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file)) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equals(key)) {
                    return Optional.of(line.substring(colon + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static Optional<String> output(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(false)
                    .start();
            String out = new String(p.getInputStream().readAllBytes()).strip();
            return p.waitFor() == 0 && !out.isEmpty() ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static int status(Path dir, String... command) {
        try {
            Process p = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            p.getInputStream().readAllBytes();
            return p.waitFor();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
