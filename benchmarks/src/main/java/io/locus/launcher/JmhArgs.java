package io.locus.launcher;

import java.util.ArrayList;
import java.util.List;

/** JMH's command line as {@code ./locus bench jmh} runs it: short runs unless asked otherwise, CPU time, JSON. */
public final class JmhArgs {
    /** Option and value pairs added unless the option is given: about 7 s per benchmark and parameter set. */
    public static final List<String> DEFAULTS = List.of("-f", "1", "-wi", "2", "-i", "3", "-w", "1s", "-r", "1s");

    static final String CPU_TIME = "io.locus.bench.compare.CpuTimeProfiler";

    private JmhArgs() {}

    /** The arguments for {@code org.openjdk.jmh.Main}: defaults not given, the profiler, JSON into {@code json}. */
    public static List<String> of(List<String> given, String json) {
        List<String> args = new ArrayList<>();
        for (int i = 0; i < DEFAULTS.size(); i += 2) {
            if (!given.contains(DEFAULTS.get(i))) {
                args.add(DEFAULTS.get(i));
                args.add(DEFAULTS.get(i + 1));
            }
        }
        args.add("-prof");
        args.add(CPU_TIME);
        if (writesJson(given)) {
            args.addAll(List.of("-rf", "json", "-rff", json));
        }
        args.addAll(given);
        return args;
    }

    /** Whether the launcher names the result file: not when the caller chose a format or file. */
    public static boolean writesJson(List<String> given) {
        return !given.contains("-rf") && !given.contains("-rff");
    }
}
