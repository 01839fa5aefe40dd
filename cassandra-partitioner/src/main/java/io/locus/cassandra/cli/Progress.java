package io.locus.cassandra.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** Progress bars on stderr (stdout stays clean for --json and for piping). */
final class Progress {
    static {
        // jline's JNI terminal provider (used by the bar for the terminal width) extracts libjlinenative.so into
        // java.io.tmpdir and can leave it there; without it jline asks stty, which leaves nothing behind.
        if (System.getProperty("org.jline.terminal.jni") == null) {
            System.setProperty("org.jline.terminal.jni", "false");
        }
    }

    private Progress() {
    }

    static ProgressBar bar(String task, long max) {
        return new ProgressBarBuilder().setTaskName(task).setInitialMax(max)
                .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(250).build();
    }
}
