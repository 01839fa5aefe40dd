package io.locus.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./locus bench [--save] AREA [args]}: runs an area with its own arguments, its stdout also written after a
 * header into {@code target/bench/AREA.md}; {@code --save} copies that file into {@code benchmarks/results/}.
 */
@Command(
        name = "bench",
        description = "Run the benchmarks of AREA; without AREA, list the areas.",
        footer = "%nEach run writes its output, after a header (date, commit, machine, java, load, command), to"
                + " target/bench/AREA.md; --save (before or after AREA) also copies it to benchmarks/results/AREA.md,"
                + " the kept results the READMEs quote, when the run succeeds.")
public final class BenchCommand implements Callable<Integer> {
    private final Checkout checkout;
    private final List<BenchArea> areas;
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--save", description = "Also copy the result into benchmarks/results/ (JMH's JSON as well).")
    boolean save;

    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help; without AREA, ./locus bench lists the areas.")
    boolean help;

    @Parameters(index = "0", arity = "0..1", paramLabel = "AREA", description = "The area (see the list).")
    String area;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The area's own arguments.")
    List<String> args = new ArrayList<>();

    public BenchCommand(Checkout checkout, List<BenchArea> areas, PrintStream out, PrintStream err) {
        this.checkout = checkout;
        this.areas = areas;
        this.out = out;
        this.err = err;
    }

    /** The list of areas, as {@code ./locus bench} prints it. */
    public String listing() {
        StringBuilder b = new StringBuilder(
                "usage: ./locus bench [--save] AREA [options]   (each run writes target/bench/AREA.md: machine, commit,"
                        + " output;\n       --save also copies it to benchmarks/results/AREA.md)\n");
        for (BenchArea a : areas) {
            b.append(a.usage());
        }
        return b.toString();
    }

    @Override
    public Integer call() throws Exception {
        if (area == null || area.equals("help")) {
            out.print(listing());
            out.flush();
            return 0;
        }
        BenchArea chosen = areas.stream()
                .filter(a -> a.name().equals(area))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("unknown benchmark area '" + area + "' (see ./locus bench)"));
        List<String> areaArgs = new ArrayList<>(args);
        // No area has a --save of its own: after AREA it still means the launcher's.
        boolean keep = save | areaArgs.removeIf(a -> a.equals("--save"));
        ResultFile result = ResultFile.start(checkout.root(), ThisMachine.header(checkout.root(), area, areaArgs), out);
        int status = 1;
        try {
            status = chosen.runner().run(new BenchRun(checkout, result, keep, err), areaArgs);
        } finally {
            result.finish(status);
        }
        Path relative = checkout.root().relativize(result.file());
        err.println("locus bench " + area + ": output also in " + relative);
        if (keep && status != 0) {
            err.println("locus bench " + area + ": not saved: exit status " + status);
        } else if (keep) {
            err.println("locus bench " + area + ": saved as "
                    + checkout.root().relativize(ResultFile.save(checkout.root(), result.file())));
        }
        err.flush();
        return status;
    }
}
