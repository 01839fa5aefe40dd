package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultHeaderTest {
    @Test
    void render_namesDateCommitMachineJavaLoadAndCommand() {
        ResultHeader h = new ResultHeader(
                "cast",
                List.of("100", "--seed", "7"),
                Instant.parse("2026-01-02T03:04:05Z"),
                "0123456789ab-dirty",
                "2 cores (nproc), Some CPU, 7.8 GiB memory, Linux 6.1.0",
                "openjdk version \"17.0.13\" 2024-10-15",
                "1.00 2.00 3.00");
        assertEquals("""
                # ./locus bench cast

                - date: 2026-01-02 03:04:05 UTC
                - commit: 0123456789ab-dirty
                - machine: 2 cores (nproc), Some CPU, 7.8 GiB memory, Linux 6.1.0
                - java: openjdk version "17.0.13" 2024-10-15
                - load average at start: 1.00 2.00 3.00
                - command: `./locus bench cast 100 --seed 7`

                """, h.render());
    }

    @Test
    void command_quotesWhatAShellWouldSplit() {
        assertEquals("plain-arg_1.json", ResultHeader.shellQuote("plain-arg_1.json"));
        assertEquals("'memcached.bench.jmh Get'", ResultHeader.shellQuote("memcached.bench.jmh Get"));
        assertEquals("'it'\\''s'", ResultHeader.shellQuote("it's"));
        assertEquals("''", ResultHeader.shellQuote(""));
        assertEquals("'*'", ResultHeader.shellQuote("*"));
    }

    @Test
    void thisMachine_fillsEveryField() {
        ResultHeader h = ThisMachine.header(java.nio.file.Path.of("."), "jmh", List.of("-l"));
        assertTrue(h.machine().matches("\\d+ cores \\(nproc\\), .+, .+ memory, .+"), h.machine());
        assertTrue(h.java().contains("version \"" + System.getProperty("java.version") + "\""), h.java());
        assertTrue(h.load().matches("[0-9.]+ [0-9.]+ [0-9.]+"), h.load());
    }
}
