package io.locus.dist;

import io.locus.fixture.HostProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The unpacked tools archive, its launchers run as an operator runs them: by their path, with {@code HOME} pointing at
 * an empty directory and nothing of the build on any path.
 */
final class ReleaseTools {
    private final Path tools;
    private final Path workDir;
    private final Path home;

    /**
     * @param tools the unpacked {@code locus-tools-VERSION} directory
     * @param workDir where the launchers run and their output files go
     * @param home the empty directory {@code HOME} points at
     */
    ReleaseTools(Path tools, Path workDir, Path home) {
        this.tools = tools;
        this.workDir = workDir;
        this.home = home;
    }

    Path dir() {
        return tools;
    }

    record Result(int code, String out, String err) {
        @Override
        public String toString() {
            return "exit " + code + "\nstdout: " + out + "\nstderr: " + err;
        }
    }

    /** Runs {@code bin/LAUNCHER args}; fails the test if it takes longer than 180 s. */
    Result run(String launcher, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(tools.resolve("bin").resolve(launcher).toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile());
        pb.environment().put("HOME", home.toString());
        pb.environment().put("LOCUS_JAVA_OPTS", String.join(" ", HostProcess.privateTmpJvmOption()));
        pb.environment().remove("CLASSPATH");
        pb.environment().remove("MAVEN_OPTS");
        Path out = Files.createTempFile(workDir, launcher, ".out");
        Path err = Files.createTempFile(workDir, launcher, ".err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(launcher + " " + String.join(" ", args) + " did not finish in 180 s");
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
