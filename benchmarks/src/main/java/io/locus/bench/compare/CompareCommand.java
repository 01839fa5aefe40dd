package io.locus.bench.compare;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./locus bench compare OLD.json NEW.json [--threshold 10]}: sets two JMH result files side by side (see
 * {@link Comparison} for the arithmetic) and prints one line per benchmark with both scores, the slowdown with its
 * error and a verdict.
 *
 * <p>Exit status: 0 when no benchmark is slower by more than the threshold beyond the error, 1 when one is (the
 * regressions are named last), 2 when a file is missing or not a JMH result file, or an option is wrong. A benchmark
 * present in only one file is listed, not an error: benchmarks come and go between commits.
 */
@Command(
        name = "compare",
        mixinStandardHelpOptions = true,
        description = "Compares two JMH result files (-rf json); exit 1 on a slowdown beyond the threshold and error.")
public final class CompareCommand implements Callable<Integer> {
    /** Exit status when a benchmark got slower. */
    public static final int SLOWER = 1;
    /** Exit status when an input cannot be used. */
    public static final int BAD_INPUT = 2;

    @Parameters(index = "0", paramLabel = "OLD.json", description = "the baseline run")
    Path oldFile;

    @Parameters(index = "1", paramLabel = "NEW.json", description = "the run to check")
    Path newFile;

    @Option(
            names = "--threshold",
            paramLabel = "PERCENT",
            defaultValue = "10",
            description = "allowed slowdown in percent, beyond the error (default ${DEFAULT-VALUE})")
    double thresholdPercent;

    @Option(
            names = "--metric",
            paramLabel = "NAME",
            description = "compare this secondary metric instead of the score, e.g. cpu.time.norm (CPU time per"
                    + " operation, from -prof io.locus.bench.compare.CpuTimeProfiler, which ./locus bench jmh adds;"
                    + " steadier than wall time on a busy machine)")
    String metric;

    @Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command with the given streams; returns the exit status. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new CompareCommand());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("locus bench compare: " + e.getMessage());
            return BAD_INPUT;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() throws JmhResults.BadResultsException {
        if (!(thresholdPercent >= 0) || Double.isInfinite(thresholdPercent)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--threshold " + thresholdPercent + " (expected: a percentage >= 0, e.g. 10)");
        }
        Map<String, JmhResult> old = JmhResults.read(oldFile, metric);
        Map<String, JmhResult> neu = JmhResults.read(newFile, metric);
        Comparison c = Comparison.of(old, neu, thresholdPercent / 100);
        PrintWriter out = spec.commandLine().getOut();
        out.print(
                table(c, oldFile.getFileName().toString(), newFile.getFileName().toString(), metric));
        out.flush();
        return c.slower().isEmpty() ? 0 : SLOWER;
    }

    /** The report: one line per benchmark in both files, then the ones in only one, then the verdict. */
    static String table(Comparison c, String oldName, String newName, String metric) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"benchmark", "params", "mode", "old", "new", "new/old time", "verdict"});
        for (Comparison.Row r : c.rows()) {
            lines.add(new String[] {
                r.old().shortName(),
                r.old().params().isEmpty() ? "-" : r.old().paramText(),
                r.old().mode(),
                score(r.old()),
                score(r.neu()),
                Double.isNaN(r.slowdown())
                        ? "units differ"
                        : String.format(
                                Locale.ROOT, "%.3f \u00b1 %.3f%s", r.slowdown(), r.error(), r.errorKnown() ? "" : "?"),
                r.verdict() == Comparison.Verdict.SAME
                        ? "~"
                        : r.verdict().name().toLowerCase(Locale.ROOT)
            });
        }
        int[] width = new int[lines.get(0).length];
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                width[i] = Math.max(width[i], l[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(String.format(
                Locale.ROOT,
                "# %s vs %s, %s: new/old time per operation (> 1 is slower) \u00b1 JMH's 99.9%% error, combined;%n"
                        + "# slower/faster = by more than %s%% beyond the error; ? = a run without an error estimate%n",
                oldName,
                newName,
                metric == null ? "score" : metric,
                trim(c.threshold() * 100)));
        for (String[] l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.length; i++) {
                boolean right = i >= 3 && i <= 5;
                String cell = right
                        ? " ".repeat(width[i] - l[i].length()) + l[i]
                        : l[i] + " ".repeat(width[i] - l[i].length());
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        for (String k : c.onlyOld()) {
            b.append("only in ").append(oldName).append(": ").append(k).append('\n');
        }
        for (String k : c.onlyNew()) {
            b.append("only in ").append(newName).append(": ").append(k).append('\n');
        }
        List<Comparison.Row> slower = c.slower();
        if (slower.isEmpty()) {
            b.append(String.format(
                    Locale.ROOT,
                    "no slowdown over %s%% beyond the error in %d benchmarks compared%n",
                    trim(c.threshold() * 100),
                    c.rows().size()));
        } else {
            b.append(String.format(
                    Locale.ROOT,
                    "SLOWER by more than %s%% beyond the error: %d of %d benchmarks compared%n",
                    trim(c.threshold() * 100),
                    slower.size(),
                    c.rows().size()));
            for (Comparison.Row r : slower) {
                b.append(String.format(
                        Locale.ROOT, "  %s: %.3f \u00b1 %.3f%n", r.old().key(), r.slowdown(), r.error()));
            }
        }
        return b.toString();
    }

    /** The score to four significant digits, its error to the same decimals. */
    private static String score(JmhResult r) {
        double abs = Math.abs(r.score());
        if (abs < 1e-3 || abs >= 1e7) {
            return String.format(Locale.ROOT, "%.3e \u00b1 %.1e %s", r.score(), r.error(), r.unit());
        }
        int decimals = Math.max(0, 3 - (int) Math.floor(Math.log10(abs)));
        String f = "%." + decimals + "f";
        String error = Double.isNaN(r.error()) ? "?" : String.format(Locale.ROOT, f, r.error());
        return String.format(Locale.ROOT, f + " \u00b1 %s %s", r.score(), error, r.unit());
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
