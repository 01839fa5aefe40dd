package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildCommandTest {
    @TempDir
    Path dir;

    @Test
    void run_handsOverStdoutLines_writesStderrToItsLog_andReturnsTheStatus() throws Exception {
        List<String> lines = new ArrayList<>();
        Path log = dir.resolve("logs/child.log");
        int status = ChildCommand.of(List.of("sh", "-c", "pwd; echo two; echo oops >&2; exit 3"))
                .run(dir, lines::add, log);
        assertEquals(3, status);
        assertEquals(List.of(dir.toRealPath().toString(), "two"), lines);
        assertEquals("oops\n", Files.readString(log));
    }

    @Test
    void java_usesTheLaunchersJava_withFlagsBeforeTheClassPath() {
        assertEquals(
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx3g",
                        "-cp",
                        "a:b",
                        "Main",
                        "x"),
                ChildCommand.java(List.of("-Xmx3g"), "a:b", "Main", List.of("x"))
                        .command());
    }
}
