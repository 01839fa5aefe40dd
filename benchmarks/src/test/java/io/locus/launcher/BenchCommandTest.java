package io.locus.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {
    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<List<String>> calls = new ArrayList<>();

    /** An area that records its arguments, prints two lines and exits with the status its first argument names. */
    private final BenchArea echo = new BenchArea("echo", "prints its arguments\nand one more line", (run, args) -> {
        calls.add(args);
        run.print("args: " + String.join(" ", args));
        run.print("done");
        return args.isEmpty() || !args.get(0).matches("\\d+") ? 0 : Integer.parseInt(args.get(0));
    });

    private int locus(String... args) {
        return LocusCommand.commandLine(
                        root,
                        List.of(echo),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .execute(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void withoutArea_listsEveryAreaOfToday_withItsHelp() {
        ByteArrayOutputStream listing = new ByteArrayOutputStream();
        int status = LocusCommand.commandLine(
                        root, new PrintStream(listing, true, StandardCharsets.UTF_8), new PrintStream(err, true))
                .execute("bench");
        assertEquals(0, status);
        String text = listing.toString(StandardCharsets.UTF_8);
        for (String area : List.of(
                "jmh",
                "compare",
                "drop",
                "cast",
                "drop-evaluate",
                "drop-cluster",
                "proxy",
                "proxy-memcaslap",
                "proxy-latency",
                "proxy-balance",
                "proxy-balance-planner",
                "virtcache")) {
            assertTrue(text.contains("\n  " + area + " "), area + " missing from\n" + text);
        }
        assertTrue(text.contains("--save"), text);
        assertTrue(text.contains("-f 1 -wi 2 -i 3 -w 1s -r 1s"), text);
    }

    @Test
    void areaArguments_reachTheArea_asGiven_includingOptionsAndHelp() {
        assertEquals(0, locus("bench", "echo", "--quick", "-p", "kind=GET", "--help", "a b"));
        assertEquals(List.of(List.of("--quick", "-p", "kind=GET", "--help", "a b")), calls);
        assertTrue(out().contains("args: --quick -p kind=GET --help a b"), out());
    }

    @Test
    void unknownArea_isRefusedByName_withExit2_andRunsNothing() {
        assertEquals(2, locus("bench", "nope", "1"));
        assertTrue(err().contains("locus: unknown benchmark area 'nope' (see ./locus bench)"), err());
        assertTrue(calls.isEmpty());
        assertFalse(Files.exists(root.resolve("target/bench/nope.md")));
    }

    @Test
    void run_writesHeaderAndOutput_underTarget_andKeepsSavedResultsAlone() throws Exception {
        Path kept = root.resolve("benchmarks/results/echo.md");
        Files.createDirectories(kept.getParent());
        Files.writeString(kept, "the numbers a README quotes\n");

        assertEquals(0, locus("bench", "echo", "x", "it's"));

        String result = Files.readString(root.resolve("target/bench/echo.md"));
        assertTrue(result.startsWith("# ./locus bench echo\n\n- date: "), result);
        assertTrue(result.contains("\n- commit: unknown\n"), result);
        assertTrue(result.contains("\n- command: `./locus bench echo x 'it'\\''s'`\n"), result);
        assertTrue(result.endsWith("```text\nargs: x it's\ndone\n```\n"), result);
        assertEquals("the numbers a README quotes\n", Files.readString(kept));
        assertTrue(err().contains("locus bench echo: output also in target/bench/echo.md"), err());
    }

    @Test
    void save_beforeOrAfterArea_copiesTheResult_andIsNotPassedToTheArea() throws Exception {
        assertEquals(0, locus("bench", "--save", "echo", "first"));
        assertEquals(
                Files.readString(root.resolve("target/bench/echo.md")),
                Files.readString(root.resolve("benchmarks/results/echo.md")));

        assertEquals(0, locus("bench", "echo", "second", "--save"));
        assertEquals(List.of(List.of("first"), List.of("second")), calls);
        String saved = Files.readString(root.resolve("benchmarks/results/echo.md"));
        assertTrue(saved.contains("args: second\n"), saved);
        assertTrue(err().contains("saved as benchmarks/results/echo.md"), err());
    }

    @Test
    void failedRun_keepsItsStatusInTheResult_andIsNotSaved() throws Exception {
        assertEquals(3, locus("bench", "--save", "echo", "3"));
        assertTrue(Files.readString(root.resolve("target/bench/echo.md")).endsWith("```\n\nexit status 3\n"));
        assertFalse(Files.exists(root.resolve("benchmarks/results/echo.md")));
        assertTrue(err().contains("not saved: exit status 3"), err());
    }

    @Test
    void noCommand_isRefusedWithUsage() {
        assertEquals(2, locus());
        assertTrue(err().contains("demo") && err().contains("bench"), err());
    }
}
