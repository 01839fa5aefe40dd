package io.locus.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int compare(String... args) {
        return CompareCommand.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
    }

    /** One JMH -rf json entry, as JMH 1.37 writes it (fields this tool ignores left out). */
    static String entry(String benchmark, String mode, String params, double score, String error, String unit) {
        return """
                {
                    "jmhVersion" : "1.37",
                    "benchmark" : "%s",
                    "mode" : "%s",
                    "threads" : 1,
                    "forks" : 1,
                    "params" : {%s},
                    "primaryMetric" : {
                        "score" : %s,
                        "scoreError" : %s,
                        "scoreConfidence" : [0, 0],
                        "scoreUnit" : "%s",
                        "rawData" : [[1.0]]
                    },
                    "secondaryMetrics" : {}
                }""".formatted(benchmark, mode, params, score, error, unit);
    }

    private Path file(String name, String... entries) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, "[" + String.join(",\n", entries) + "]\n");
        return p;
    }

    private static final String TOKEN = "io.locus.bench.cassandra.TokenBenchmark.getToken";
    private static final String GET = "io.locus.memcached.bench.jmh.DeadlineCacheBenchmark.get";

    @Test
    void twentyPercentSlowerWithSmallError_exits1AndNamesIt() throws IOException {
        Path old = file(
                "old.json",
                entry(TOKEN, "avgt", "\"impl\" : \"DROP\", \"keys\" : \"TYPICAL\"", 50.0, "0.5", "ns/op"),
                entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        Path neu = file(
                "new.json",
                entry(TOKEN, "avgt", "\"impl\" : \"DROP\", \"keys\" : \"TYPICAL\"", 60.0, "0.6", "ns/op"),
                entry(GET, "avgt", "", 81.0, "1.0", "ns/op"));

        assertEquals(CompareCommand.SLOWER, compare(old.toString(), neu.toString()), out + "\n" + err);

        String report = out.toString();
        String verdict = report.substring(report.indexOf("SLOWER by more than 10%"));
        assertTrue(verdict.contains(TOKEN + " [avgt] impl=DROP keys=TYPICAL: 1.200"), report);
        assertTrue(!verdict.contains(GET), "only the slower benchmark is named: " + report);
        String row = "^TokenBenchmark\\.getToken +impl=DROP keys=TYPICAL +avgt +50\\.00 ± 0\\.50 ns/op"
                + " +60\\.00 ± 0\\.60 ns/op +1\\.200 ± 0\\.017 +slower$";
        assertTrue(Pattern.compile(row, Pattern.MULTILINE).matcher(report).find(), report);
    }

    @Test
    void fivePercentWithinError_exits0() throws IOException {
        Path old = file("old.json", entry(TOKEN, "avgt", "\"keys\" : \"DEEP\"", 100.0, "4.0", "ns/op"));
        Path neu = file("new.json", entry(TOKEN, "avgt", "\"keys\" : \"DEEP\"", 105.0, "4.0", "ns/op"));

        assertEquals(0, compare(old.toString(), neu.toString()), out + "\n" + err);
        assertTrue(
                out.toString().contains("no slowdown over 10% beyond the error in 1 benchmarks compared"),
                out.toString());
    }

    @Test
    void slowerButNotBeyondTheError_exits0() {
        // 15% slower, but each score is only known to +-8%: the low end (about 1.03) is within 10%.
        JmhResult a = new JmhResult(GET, "avgt", new java.util.TreeMap<>(), 100, 8, "ns/op");
        JmhResult b = new JmhResult(GET, "avgt", new java.util.TreeMap<>(), 115, 9.2, "ns/op");
        Comparison.Row r = Comparison.row(a, b, 0.10);
        assertEquals(1.15, r.slowdown(), 1e-9);
        assertEquals(1.15 * Math.sqrt(2 * 0.08 * 0.08), r.error(), 1e-9);
        assertEquals(Comparison.Verdict.SAME, r.verdict());
    }

    @Test
    void throughput_lowerScoreIsSlower() throws IOException {
        Path old = file("old.json", entry(GET, "thrpt", "", 1000.0, "10.0", "ops/ms"));
        Path neu = file("new.json", entry(GET, "thrpt", "", 800.0, "8.0", "ops/ms"));

        assertEquals(CompareCommand.SLOWER, compare(old.toString(), neu.toString()), out.toString());
        assertTrue(out.toString().contains(": 1.250"), out.toString());
    }

    @Test
    void differentUnitsAndModes_areNormalisedToTimePerOperation() throws IOException {
        // 0.05 us/op = 50 ns/op; 20,000,000 ops/s = 50 ns/op: the same speed in three spellings.
        Path old = file("old.json", entry(GET, "avgt", "", 0.05, "0.001", "us/op"));
        Path neu = file("new.json", entry(GET, "avgt", "", 50.0, "1.0", "ns/op"));
        assertEquals(0, compare(old.toString(), neu.toString()), out.toString());
        assertTrue(out.toString().contains("1.000 \u00b1"), out.toString());

        JmhResult thrpt = new JmhResult(GET, "thrpt", new java.util.TreeMap<>(), 2e7, 0, "ops/s");
        assertEquals(50e-9, thrpt.secondsPerOp(), 1e-15);
    }

    @Test
    void benchmarkInOnlyOneFile_isReportedNotFatal() throws IOException {
        Path old = file(
                "old.json",
                entry(GET, "avgt", "", 80.0, "1.0", "ns/op"),
                entry(TOKEN, "avgt", "\"keys\" : \"SHORT\"", 20.0, "0.1", "ns/op"));
        Path neu = file(
                "new.json",
                entry(GET, "avgt", "", 80.0, "1.0", "ns/op"),
                entry(GET.replace(".get", ".put"), "avgt", "", 90.0, "1.0", "ns/op"));

        assertEquals(0, compare(old.toString(), neu.toString()), out + "\n" + err);
        assertTrue(out.toString().contains("only in old.json: " + TOKEN + " [avgt] keys=SHORT"), out.toString());
        assertTrue(
                out.toString().contains("only in new.json: " + GET.replace(".get", ".put") + " [avgt]"),
                out.toString());
    }

    @Test
    void missingErrorEstimate_comparesTheScoresAndMarksTheRow() throws IOException {
        Path old = file("old.json", entry(GET, "ss", "", 100.0, "\"NaN\"", "us/op"));
        Path neu = file("new.json", entry(GET, "ss", "", 130.0, "\"NaN\"", "us/op"));

        assertEquals(CompareCommand.SLOWER, compare(old.toString(), neu.toString()), out + "\n" + err);
        assertTrue(out.toString().contains("1.300 \u00b1 0.000?"), out.toString());
    }

    @Test
    void secondaryMetric_isComparedWhenAsked() throws IOException {
        String cpuOld = entry(GET, "avgt", "", 100.0, "20.0", "ns/op")
                .replace(
                        "\"secondaryMetrics\" : {}",
                        "\"secondaryMetrics\" : {\"\u00b7cpu.time.norm\" : "
                                + "{\"score\" : 50.0, \"scoreError\" : 0.5, \"scoreUnit\" : \"ns/op\"}}");
        String cpuNew = entry(GET, "avgt", "", 110.0, "20.0", "ns/op")
                .replace(
                        "\"secondaryMetrics\" : {}",
                        "\"secondaryMetrics\" : {\"\u00b7cpu.time.norm\" : "
                                + "{\"score\" : 60.0, \"scoreError\" : 0.5, \"scoreUnit\" : \"ns/op\"}}");
        Path old = file("old.json", cpuOld);
        Path neu = file("new.json", cpuNew);

        // The wall-clock scores are within their (large) error; the CPU times are 20% apart with a small one.
        assertEquals(0, compare(old.toString(), neu.toString()), out.toString());
        assertEquals(CompareCommand.SLOWER, compare(old.toString(), neu.toString(), "--metric", "cpu.time.norm"));
        assertTrue(out.toString().contains(GET + " [avgt]: 1.200"), out.toString());
    }

    @Test
    void secondaryMetricMissing_exits2NamingWhatTheEntryHas() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        assertEquals(CompareCommand.BAD_INPUT, compare(good.toString(), good.toString(), "--metric", "cpu.time.norm"));
        assertTrue(
                err.toString()
                        .contains(good + ": entry 0 (" + GET + "): no secondary metric \"cpu.time.norm\" (has: none;"),
                err.toString());
    }

    @Test
    void missingFile_exits2NamingIt() {
        Path missing = dir.resolve("nope.json");
        assertEquals(CompareCommand.BAD_INPUT, compare(missing.toString(), missing.toString()));
        assertTrue(err.toString().contains(missing + ": no such file"), err.toString());
    }

    @Test
    void corruptFile_exits2NamingIt() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "[{\"benchmark\" : \"x\", ");

        assertEquals(CompareCommand.BAD_INPUT, compare(good.toString(), bad.toString()));
        assertTrue(err.toString().contains(bad + ": not valid JSON"), err.toString());
    }

    @Test
    void entryWithoutScore_exits2NamingEntryAndField() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        Path bad = file("bad.json", "{\"benchmark\" : \"a.B.c\", \"mode\" : \"avgt\", \"primaryMetric\" : {}}");

        assertEquals(CompareCommand.BAD_INPUT, compare(good.toString(), bad.toString()));
        assertTrue(err.toString().contains(bad + ": entry 0 (a.B.c): primaryMetric.score is missing"), err.toString());
    }

    @Test
    void notAnArray_exits2() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        Path bad = dir.resolve("object.json");
        Files.writeString(bad, "{\"benchmark\" : \"x\"}");

        assertEquals(CompareCommand.BAD_INPUT, compare(bad.toString(), good.toString()));
        assertTrue(err.toString().contains(bad + ": top level is object"), err.toString());
    }

    @Test
    void malformedEntries_exit2WithWhatWasExpected() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        String[][] cases = {
            {"[]", "empty.json: holds no benchmark results (expected: at least one)"},
            {"[42]", "entry 0 is number (expected: an object with benchmark, mode and primaryMetric)"},
            {"[{\"mode\" : \"avgt\"}]", "entry 0: field \"benchmark\" is missing (expected: a non-empty string)"},
            {
                "[" + entry(GET, "avgt", "", 80.0, "1.0", "ns/op").replace("\"params\" : {}", "\"params\" : [1]") + "]",
                "entry 0 (" + GET + "): params is array (expected: an object of name: value)"
            },
            {
                "[" + entry(GET, "avgt", "", 0.0, "1.0", "ns/op") + "]",
                "entry 0 (" + GET + "): primaryMetric.score 0.0 (expected: a positive number)"
            },
            {
                "[" + entry(GET, "avgt", "", 80.0, "-1.0", "ns/op") + "]",
                "entry 0 (" + GET + "): primaryMetric.scoreError -1.0 (expected: >= 0 or NaN)"
            },
            {
                "[" + entry(GET, "avgt", "", 80.0, "1.0", "ns/op") + "," + entry(GET, "avgt", "", 81.0, "1.0", "ns/op")
                        + "]",
                "entry 1: " + GET + " [avgt] appears twice (expected: once per file)"
            },
        };
        for (String[] c : cases) {
            Path bad = dir.resolve(c[1].startsWith("empty") ? "empty.json" : "bad.json");
            Files.writeString(bad, c[0]);
            StringWriter e = new StringWriter();
            int status = CompareCommand.run(
                    new PrintWriter(new StringWriter(), true),
                    new PrintWriter(e, true),
                    good.toString(),
                    bad.toString());
            assertEquals(CompareCommand.BAD_INPUT, status, c[0]);
            assertTrue(
                    e.toString().contains(bad + (c[1].startsWith("empty") ? c[1].substring(10) : ": " + c[1])),
                    e.toString());
        }
    }

    @Test
    void unitsThatDoNotConvert_areReportedNotCompared() throws IOException {
        Path old = file("old.json", entry(GET, "avgt", "", 80.0, "1.0", "B/op"));
        Path neu = file("new.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        assertEquals(0, compare(old.toString(), neu.toString()), out.toString());
        assertTrue(out.toString().contains("units differ  incomparable"), out.toString());
    }

    @Test
    void negativeThreshold_isRefused() throws IOException {
        Path good = file("good.json", entry(GET, "avgt", "", 80.0, "1.0", "ns/op"));
        assertEquals(CompareCommand.BAD_INPUT, compare(good.toString(), good.toString(), "--threshold", "-5"));
        assertTrue(err.toString().contains("--threshold -5.0 (expected: a percentage >= 0"), err.toString());
    }

    @Test
    void threshold_isAnOption() throws IOException {
        Path old = file("old.json", entry(GET, "avgt", "", 100.0, "1.0", "ns/op"));
        Path neu = file("new.json", entry(GET, "avgt", "", 108.0, "1.0", "ns/op"));
        assertEquals(0, compare(old.toString(), neu.toString()));
        assertEquals(
                CompareCommand.SLOWER, compare(old.toString(), neu.toString(), "--threshold", "5"), out.toString());
    }
}
