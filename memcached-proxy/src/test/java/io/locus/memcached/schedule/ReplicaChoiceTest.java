package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReplicaChoiceTest {
    private static final long MS = 1_000_000;
    private final ManualClock clock = new ManualClock();
    private final TicketListener<String> ignore = new TicketListener<>() {
        @Override
        public void dispatch(Ticket<String> ticket) {}

        @Override
        public void expired(Ticket<String> ticket) {}
    };

    /** W = 1, 1 ms per request, with {@code queued} best-effort tickets ahead (deadline 1 ms, so EDF-first). */
    private DeadlineScheduler<String> backendWithQueue(int queued) {
        DeadlineScheduler<String> s = new DeadlineScheduler<>(
                SchedulerConfig.paperMode().withInitialServiceEstimate(Duration.ofMillis(1)),
                ServiceLevels.unrestricted(),
                clock,
                ignore);
        for (int i = 0; i < queued; i++) {
            s.offer(TicketRequest.bestEffortRead("t", 0, 1 * MS), "be" + i);
        }
        return s;
    }

    @Test
    void bothAdmit_earlierPredictedFinishWins() {
        List<DeadlineScheduler<String>> two = List.of(backendWithQueue(5), backendWithQueue(1));
        ReplicaChoice.Choice<String> c = ReplicaChoice.choose(two, TicketRequest.hardRead("t", 0, 100 * MS));
        assertEquals(1, c.index());
        assertEquals(2 * MS, c.evaluation().predictedFinishNanos());
    }

    @Test
    void onlyOneAdmits_itWins() {
        List<DeadlineScheduler<String>> two = List.of(backendWithQueue(1), backendWithQueue(8));
        ReplicaChoice.Choice<String> c = ReplicaChoice.choose(two, TicketRequest.hardRead("t", 0, 3 * MS));
        assertEquals(0, c.index());
        assertTrue(c.evaluation().admitted());
    }

    @Test
    void noneAdmits_hardIsRejected_bestEffortGoesToEarlierFinish() {
        List<DeadlineScheduler<String>> two = List.of(backendWithQueue(8), backendWithQueue(6));
        ReplicaChoice.Choice<String> hard = ReplicaChoice.choose(two, TicketRequest.hardRead("t", 0, 3 * MS));
        assertEquals(-1, hard.index());
        assertEquals(RejectReason.DEADLINE_INFEASIBLE, hard.evaluation().reason());
        assertEquals(7 * MS, hard.evaluation().predictedFinishNanos(), "the better estimate is reported");
        ReplicaChoice.Choice<String> be = ReplicaChoice.choose(two, TicketRequest.bestEffortRead("t", 0, 3 * MS));
        assertEquals(1, be.index());
    }

    @Test
    void pickTwo_returnsTwoDistinctReplicas_coveringAll() {
        Random rnd = new Random(3);
        List<String> replicas = List.of("a", "b", "c", "d");
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            List<String> two = ReplicaChoice.pickTwo(replicas, rnd);
            assertEquals(2, two.size());
            assertNotEquals(two.get(0), two.get(1));
            seen.addAll(two);
        }
        assertEquals(Set.copyOf(replicas), seen);
        assertEquals(List.of("a"), ReplicaChoice.pickTwo(List.of("a"), rnd));
    }
}
