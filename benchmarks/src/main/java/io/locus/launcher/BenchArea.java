package io.locus.launcher;

import java.util.List;

/** One area of {@code ./locus bench}: its name, its help text, and how it runs. */
public record BenchArea(String name, String help, Runner runner) {
    /** Runs an area with its arguments; returns the exit status. */
    @FunctionalInterface
    public interface Runner {
        int run(BenchRun run, List<String> args) throws Exception;
    }

    /** The help entry: the name, then the text, continuation lines under the first. */
    public String usage() {
        String[] lines = help.strip().split("\n");
        StringBuilder b = new StringBuilder("  ");
        b.append(name.length() <= 8 ? String.format("%-8s ", name) : name + "  ");
        b.append(lines[0].strip()).append('\n');
        for (int i = 1; i < lines.length; i++) {
            b.append("           ").append(lines[i].strip()).append('\n');
        }
        return b.toString();
    }
}
