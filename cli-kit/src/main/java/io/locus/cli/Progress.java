package io.locus.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** Progress bars on stderr (stdout stays clean for --json and for piping). */
public final class Progress {
    private Progress() {}

    /** A bar for {@code task} with {@code max} steps; close it (try-with-resources) when the task ends. */
    public static ProgressBar bar(String task, long max) {
        return new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(max)
                .setConsumer(new ConsoleProgressBarConsumer(System.err, width()))
                .setUpdateIntervalMillis(250)
                .build();
    }

    /**
     * The bar's width: $COLUMNS, else 100. A fixed width keeps the bar from asking jline for the terminal's, which
     * loads jline's JNI provider, and that extracts libjlinenative.so into java.io.tmpdir and can leave it there.
     */
    private static int width() {
        String columns = System.getenv("COLUMNS");
        if (columns != null && columns.matches("[0-9]{2,4}")) {
            return Integer.parseInt(columns) - 1;
        }
        return 100;
    }
}
