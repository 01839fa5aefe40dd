package io.locus.launcher;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One child process of the launcher: a JVM on a class path Maven wrote, or a tool such as {@code mvn}. Steps run in
 * JVMs of their own because their class paths do not mix (Hadoop, Cassandra) or because they need their own flags
 * (C1 only for the short host checks, JMH's forks, a bigger heap).
 */
public final class ChildCommand {
    private final List<String> command;

    private ChildCommand(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** {@code java [jvmFlags] -cp classPath main args}, with the java that runs the launcher. */
    public static ChildCommand java(List<String> jvmFlags, String classPath, String main, List<String> args) {
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(jvmFlags);
        c.add("-cp");
        c.add(classPath);
        c.add(main);
        c.addAll(args);
        return new ChildCommand(c);
    }

    public static ChildCommand of(List<String> command) {
        return new ChildCommand(command);
    }

    public List<String> command() {
        return command;
    }

    /** Runs with stdout and stderr into the given files; returns the exit status. */
    public int runToFiles(Path dir, Path stdout, Path stderr) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.redirectOutput(stdout.toFile());
        pb.redirectError(stderr.toFile());
        return waitFor(start(pb, stdout, stderr));
    }

    /**
     * Runs with each line of stdout handed to {@code lines} (so it can go to the screen and a result file at once) and
     * stderr into {@code stderr}, or to the launcher's own stderr when null; returns the exit status.
     */
    public int run(Path dir, Consumer<String> lines, Path stderr) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
        pb.redirectError(
                stderr == null ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.to(stderr.toFile()));
        Process p = start(pb, null, stderr);
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.accept(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the output of " + command.get(0), e);
        }
        return waitFor(p);
    }

    /** Runs with the launcher's own stdin, stdout and stderr; returns the exit status. */
    public int runInherited(Path dir) {
        return waitFor(start(new ProcessBuilder(command).directory(dir.toFile()).inheritIO(), null, null));
    }

    private Process start(ProcessBuilder pb, Path stdout, Path stderr) {
        try {
            for (Path p : new Path[] {stdout, stderr}) {
                if (p != null && p.getParent() != null) {
                    Files.createDirectories(p.getParent());
                }
            }
            Process p = pb.start();
            // A step stopped with Ctrl-C takes its child with it.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> p.destroy()));
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0), e);
        }
    }

    private static int waitFor(Process p) {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroy();
            return 130;
        }
    }
}
