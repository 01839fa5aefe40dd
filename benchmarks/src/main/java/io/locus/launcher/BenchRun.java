package io.locus.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What an area runs with: the checkout, its result file, and whether kept results are replaced ({@code --save}). */
public final class BenchRun {
    private final Checkout checkout;
    private final ResultFile result;
    private final boolean save;
    private final PrintStream err;

    public BenchRun(Checkout checkout, ResultFile result, boolean save, PrintStream err) {
        this.checkout = checkout;
        this.result = result;
        this.save = save;
        this.err = err;
    }

    public Checkout checkout() {
        return checkout;
    }

    public Path root() {
        return checkout.root();
    }

    public boolean save() {
        return save;
    }

    /** A progress line on stderr: not part of the result. */
    public void say(String message) {
        err.println(message);
        err.flush();
    }

    /** A line of the result: on stdout and in the result file. */
    public void print(String line) {
        result.line(line);
    }

    /** Runs a JVM whose stdout is part of the result; stderr goes to {@code stderrLog}, or to the screen when null. */
    public int java(List<String> jvmFlags, String classPath, String main, List<String> args, Path stderrLog) {
        return ChildCommand.java(jvmFlags, classPath, main, args).run(root(), this::print, stderrLog);
    }

    /** Runs a tool ({@code mvn}) whose stdout is part of the result. */
    public int tool(List<String> command) {
        return ChildCommand.of(command).run(root(), this::print, null);
    }

    static List<String> concat(List<String> first, List<String> then) {
        List<String> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }
}
