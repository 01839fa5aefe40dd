package io.locus.cassandra.cli;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/** Progress bars on stderr (stdout stays clean for --json and for piping). */
final class Progress {
    private Progress() {
    }

    static ProgressBar bar(String task, long max) {
        return new ProgressBarBuilder().setTaskName(task).setInitialMax(max)
                .setConsumer(new ConsoleProgressBarConsumer(System.err)).setUpdateIntervalMillis(250).build();
    }
}
