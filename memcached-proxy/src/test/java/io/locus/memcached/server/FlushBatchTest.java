package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch flushes every queued connection once per run, even after one of them failed, and can run again. */
class FlushBatchTest {
    @Test
    void aFailingFlush_leavesTheOthersFlushed_andTheBatchSchedulesAgain() {
        EmbeddedChannel ch = new EmbeddedChannel();
        FlushBatch batch = FlushBatch.of(ch.eventLoop());
        List<String> flushed = new ArrayList<>();
        batch.add(() -> {
            throw new IllegalStateException("channel gone");
        });
        batch.add(() -> flushed.add("b"));
        ch.runPendingTasks();
        assertEquals(List.of("b"), flushed);

        batch.add(() -> flushed.add("c"));
        ch.runPendingTasks();
        assertEquals(List.of("b", "c"), flushed);
        ch.finishAndReleaseAll();
    }
}
