package io.locus.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** The system commands the package and image tests run as an operator would (dpkg, skopeo, umoci, runc). */
final class Shell {
    private Shell() {}

    /** Runs a command; {@code expectExit} -1 accepts any exit code. Returns stdout and stderr together. */
    static String run(int expectExit, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        if (expectExit >= 0) {
            assertEquals(expectExit, p.exitValue(), String.join(" ", command) + ": " + out);
        }
        return out;
    }
}
