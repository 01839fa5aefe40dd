package io.locus.memcached.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DeadlineSchedulerTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    private final ManualClock clock = new ManualClock();
    private final List<Ticket<String>> dispatched = new ArrayList<>();
    private final List<Ticket<String>> expired = new ArrayList<>();
    private final TicketListener<String> recorder = new TicketListener<>() {
        @Override
        public void dispatch(Ticket<String> ticket) {
            dispatched.add(ticket);
        }

        @Override
        public void expired(Ticket<String> ticket) {
            expired.add(ticket);
        }
    };

    private DeadlineScheduler<String> scheduler(SchedulerConfig config) {
        return new DeadlineScheduler<>(config, ServiceLevels.unrestricted(), clock, recorder);
    }

    private List<String> dispatchedPayloads() {
        return dispatched.stream().map(Ticket::payload).toList();
    }

    /** Drains the scheduler one completion at a time, oldest dispatched first. */
    private void completeAll(DeadlineScheduler<String> s) {
        for (int i = 0; i < dispatched.size(); i++) {
            if (dispatched.get(i).state() == Ticket.State.DISPATCHED) {
                s.complete(dispatched.get(i));
            }
        }
    }

    @Test
    void dispatch_followsEarliestDeadline_withFifoAmongEqualDeadlines() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode().withMaxDemotions(100));
        s.offer(TicketRequest.bestEffortRead("t", 0, 1 * MS), "blocker");
        s.offer(TicketRequest.hardRead("t", 0, 50 * MS), "d50");
        s.offer(TicketRequest.bestEffortRead("t", 0, 10 * MS), "d10");
        s.offer(TicketRequest.hardRead("t", 0, 30 * MS), "d30a");
        s.offer(TicketRequest.write("t", 0, 20 * MS), "d20");
        s.offer(TicketRequest.hardRead("t", 0, 30 * MS), "d30b");
        s.offer(TicketRequest.hardRead("t", 0, 40 * MS), "d40");
        assertEquals(List.of("blocker"), dispatchedPayloads(), "window 1: one ticket in flight");
        completeAll(s);
        assertEquals(List.of("blocker", "d10", "d20", "d30a", "d30b", "d40", "d50"), dispatchedPayloads());
    }

    /**
     * The backend serves one request per 500 µs, eight sent at a time: the last of each batch replies 4 ms after its
     * dispatch, but admission learns 500 µs per request, so an idle backend admits a 2 ms read and a backend with
     * eight in flight and eight queued ahead (predicted 16 x 500 µs + 500 µs) refuses it.
     */
    @Test
    void admission_admitsOnIdleBackend_refusesBehindLongQueue() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.defaults());
        for (int batch = 0; batch < 5; batch++) {
            int first = dispatched.size();
            for (int i = 0; i < 8; i++) {
                s.offer(TicketRequest.bestEffortRead("t", clock.nowNanos, TicketRequest.NO_DEADLINE), "b" + batch);
            }
            for (int i = 0; i < 8; i++) {
                clock.nowNanos += 500 * US;
                s.complete(dispatched.get(first + i));
            }
        }
        assertEquals(500 * US, s.admission().model().quantileNanos(), "40 samples of 500 µs each");

        Decision<String> idle = s.offer(TicketRequest.hardRead("t", clock.nowNanos, 2 * MS), "idle");
        assertTrue(idle.admitted(), "idle backend: " + idle);
        assertEquals(clock.nowNanos + 500 * US, idle.predictedFinishNanos());
        clock.nowNanos += 500 * US;
        s.complete(idle.ticket());

        for (int i = 0; i < 16; i++) { // best-effort reads due in 1 ms stay ahead of a 2 ms read in EDF order
            s.offer(TicketRequest.bestEffortRead("t", clock.nowNanos, 1 * MS), "busy");
        }
        assertEquals(8, s.inflight());
        assertEquals(8, s.queueLength());
        Decision<String> busy = s.offer(TicketRequest.hardRead("t", clock.nowNanos, 2 * MS), "busy");
        assertFalse(busy.admitted(), "16 ahead: " + busy);
        assertEquals(RejectReason.DEADLINE_INFEASIBLE, busy.reason());
        assertEquals(clock.nowNanos + 17 * 500 * US, busy.predictedFinishNanos());
    }

    @Test
    void window_limitsTicketsInFlight() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.defaults().withWindow(3));
        for (int i = 0; i < 10; i++) {
            s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "r" + i);
        }
        assertEquals(3, s.inflight());
        assertEquals(7, s.queueLength());
        s.complete(dispatched.get(0));
        assertEquals(3, s.inflight());
        assertEquals(6, s.queueLength());
        assertThrows(IllegalStateException.class, () -> s.complete(dispatched.get(0)));
    }

    /**
     * Bounded deferral: a best-effort ticket (nominal deadline 1 s) facing an endless stream of urgent
     * tickets is overtaken by at most K = 4 of them, then served.
     */
    @Test
    void bestEffort_isOvertakenAtMostMaxDemotionsTimes() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode().withMaxDemotions(4));
        s.offer(TicketRequest.bestEffortRead("t", 0, 1 * MS), "blocker");
        s.offer(TicketRequest.bestEffortRead("batch", 0, TicketRequest.NO_DEADLINE), "be");
        for (int i = 0; i < 20; i++) {
            s.offer(TicketRequest.bestEffortRead("t", 0, 5 * MS), "urgent" + i);
        }
        completeAll(s);
        List<String> order = dispatchedPayloads();
        assertEquals(5, order.indexOf("be"), "be after the blocker and 4 urgent tickets: " + order);
        assertEquals(4, dispatched.get(5).demotions());
    }

    /**
     * The same property under a random mix (seeded): no ticket is dispatched after more than K tickets that
     * were admitted later than it, and no ticket's demotion count exceeds K.
     */
    @Test
    void randomMix_noTicketOvertakenByMoreThanMaxDemotions() {
        long seed = 99L;
        System.out.println("randomMix_noTicketOvertakenByMoreThanMaxDemotions seed=" + seed);
        Random rnd = new Random(seed);
        int k = 3;
        Simulation sim = new Simulation();
        Simulation.Backend backend = new Simulation.Backend(sim, 1, Simulation.lognormal(rnd, 1 * MS, 0.5));
        DeadlineScheduler<Integer> s = new DeadlineScheduler<>(
                SchedulerConfig.defaults().withWindow(2).withMaxDemotions(k),
                ServiceLevels.unrestricted(),
                sim,
                backend);
        backend.scheduler = s;
        long t = 0;
        for (int i = 0; i < 3_000; i++) {
            t += (long) (-Math.log(1 - rnd.nextDouble()) * 0.8 * MS);
            int id = i;
            boolean hard = rnd.nextBoolean();
            long d = (1 + rnd.nextInt(200)) * MS;
            sim.at(
                    t,
                    () -> s.offer(
                            hard
                                    ? TicketRequest.hardRead("t", sim.getAsLong(), d)
                                    : TicketRequest.bestEffortRead(
                                            "t", sim.getAsLong(), rnd.nextInt(3) == 0 ? TicketRequest.NO_DEADLINE : d),
                            id));
        }
        sim.run();
        assertEquals(0, s.queueLength());
        assertEquals(0, s.inflight());
        List<Ticket<Integer>> order = backend.dispatched;
        assertTrue(order.size() > 1_500, "dispatched " + order.size());
        long worst = 0;
        for (int i = 0; i < order.size(); i++) {
            long seqI = order.get(i).sequence();
            long overtakers = order.subList(0, i).stream()
                    .filter(o -> o.sequence() > seqI)
                    .count();
            worst = Math.max(worst, overtakers);
            assertTrue(order.get(i).demotions() <= k, order.get(i).toString());
        }
        assertTrue(worst <= k, "a ticket was overtaken by " + worst + " later tickets (K = " + k + ")");
        assertEquals(k, worst, "the load should reach the bound at least once");
    }

    @Test
    void hard_infeasibleDeadline_isRejectedWithEstimate() {
        // Cold start: 500 µs service estimate, guard 100 µs; an idle backend predicts now + 500 µs.
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.defaults());
        clock.nowNanos = 1_000 * MS;
        Decision<String> d = s.offer(TicketRequest.hardRead("t", clock.nowNanos, 550 * US), "x");
        assertFalse(d.admitted());
        assertEquals(RejectReason.DEADLINE_INFEASIBLE, d.reason());
        assertEquals(clock.nowNanos + 500 * US, d.predictedFinishNanos());
        assertNull(d.ticket());
        assertTrue(
                s.offer(TicketRequest.hardRead("t", clock.nowNanos, 600 * US), "y")
                        .admitted(),
                "exactly finish + guard is feasible");
        assertEquals(0, expired.size());
    }

    @Test
    void hard_predictionGrowsWithQueuePosition() {
        // W = 1, estimate 1 ms: a ticket at queue index p waits for p + 1 completions plus its own service.
        DeadlineScheduler<String> s =
                scheduler(SchedulerConfig.paperMode().withInitialServiceEstimate(Duration.ofMillis(1)));
        for (int i = 0; i < 5; i++) {
            Decision<String> d = s.offer(TicketRequest.bestEffortRead("t", 0, 1 * MS), "be" + i);
            assertEquals((i == 0 ? 1 : i + 1) * MS, d.predictedFinishNanos(), "ticket " + i);
        }
        Decision<String> tight = s.offer(TicketRequest.hardRead("t", 0, 5 * MS), "tight");
        assertEquals(RejectReason.DEADLINE_INFEASIBLE, tight.reason(), "needs 6 ms (5 ahead + own)");
        assertTrue(s.offer(TicketRequest.hardRead("t", 0, 6 * MS + 100 * US), "fits")
                .admitted());
    }

    /**
     * [MicroFuge §4.2]: a request that would push an admitted one past its deadline is refused. W = 1, 1 ms per
     * request, one in flight: A (deadline 2.15 ms) is admitted with 50 µs of slack; B (2.1 ms) would be
     * feasible itself at position 0 but would push A to 3 ms.
     */
    @Test
    void hard_wouldBreakAdmittedTicket_isRejected() {
        DeadlineScheduler<String> s =
                scheduler(SchedulerConfig.paperMode().withInitialServiceEstimate(Duration.ofMillis(1)));
        s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "inflight");
        assertTrue(s.offer(TicketRequest.hardRead("t", 0, 2_150 * US), "A").admitted());
        Decision<String> b = s.offer(TicketRequest.hardRead("t", 0, 2_100 * US), "B");
        assertEquals(RejectReason.WOULD_BREAK_ADMITTED, b.reason());
        Decision<String> later = s.offer(TicketRequest.hardRead("t", 0, 3_200 * US), "C");
        assertTrue(later.admitted(), "behind A it harms nobody: " + later);
    }

    @Test
    void bestEffortAndWrites_areNeverRejected() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode().withMaxQueue(2));
        for (int i = 0; i < 10; i++) {
            assertTrue(
                    s.offer(TicketRequest.bestEffortRead("t", 0, 1), "be" + i).admitted());
            assertTrue(s.offer(TicketRequest.write("t", 0, 1), "w" + i).admitted());
        }
        assertEquals(
                RejectReason.QUEUE_FULL,
                s.offer(TicketRequest.hardRead("t", 0, 10_000 * MS), "h").reason());
        assertEquals(19, s.queueLength());
    }

    @Test
    void write_isBestEffortEvenIfAskedHard() {
        TicketRequest w = new TicketRequest("t", TicketRequest.Kind.WRITE, true, 0, 1);
        assertFalse(w.hard());
    }

    @Test
    void dropExpired_queuedHardTicketPastDeadline_isDroppedNotDispatched() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.defaults().withWindow(1));
        s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "first");
        Ticket<String> late =
                s.offer(TicketRequest.hardRead("t", 0, 2 * MS), "late").ticket();
        s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "after");
        clock.nowNanos = 3 * MS;
        s.complete(dispatched.get(0));
        assertEquals(List.of(late), expired);
        assertEquals(Ticket.State.EXPIRED, late.state());
        assertEquals(List.of("first", "after"), dispatchedPayloads());
        assertEquals(1, s.admission().totalMissed());
        assertEquals("deadline exceeded", RejectReason.DEADLINE_EXCEEDED.serverErrorText(0));
    }

    /**
     * A hard ticket whose deadline passed behind an earlier-due ticket is dropped at the next offer or completion, not
     * when it reaches the head of the queue.
     */
    @Test
    void dropExpired_hardTicketPastDeadlineBehindOthers_isDroppedAtTheNextEvent() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.defaults().withWindow(1));
        s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "first");
        s.offer(TicketRequest.bestEffortRead("t", 0, 1 * MS), "due-1ms");
        Ticket<String> late =
                s.offer(TicketRequest.hardRead("t", 0, 3 * MS), "late").ticket();
        assertEquals(
                List.of("due-1ms", "late"),
                s.queued().stream().map(Ticket::payload).toList());
        clock.nowNanos = 4 * MS;
        s.offer(TicketRequest.bestEffortRead("t", clock.nowNanos, TicketRequest.NO_DEADLINE), "trigger");
        assertEquals(List.of(late), expired, "dropped while \"first\" is still in flight");
        assertEquals(Ticket.State.EXPIRED, late.state());
        assertEquals(
                List.of("due-1ms", "trigger"),
                s.queued().stream().map(Ticket::payload).toList());
        assertEquals(List.of("first"), dispatchedPayloads());
        assertEquals(1, s.admission().totalMissed());
    }

    @Test
    void paperMode_dispatchesExpiredTicketsAnyway() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode());
        s.offer(TicketRequest.bestEffortRead("t", 0, TicketRequest.NO_DEADLINE), "first");
        s.offer(TicketRequest.hardRead("t", 0, 2 * MS), "late");
        clock.nowNanos = 3 * MS;
        s.complete(dispatched.get(0));
        assertEquals(List.of("first", "late"), dispatchedPayloads());
        s.complete(dispatched.get(1));
        assertEquals(1, s.admission().totalMissed(), "completed after its deadline");
    }

    @Test
    void cancel_removesQueuedTicketOnly() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode());
        Ticket<String> running =
                s.offer(TicketRequest.bestEffortRead("t", 0, 1), "a").ticket();
        Ticket<String> queued =
                s.offer(TicketRequest.bestEffortRead("t", 0, 1), "b").ticket();
        assertFalse(s.cancel(running), "a dispatched ticket runs to completion");
        assertTrue(s.cancel(queued));
        assertEquals(Ticket.State.CANCELLED, queued.state());
        s.complete(running);
        assertEquals(List.of("a"), dispatchedPayloads());
    }

    @Test
    void abandon_freesTheWindowPlace_withoutAServiceTime() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode());
        List<Ticket<String>> two = new ArrayList<>();
        for (String payload : List.of("a", "b")) {
            two.add(s.offer(TicketRequest.bestEffortRead("t", 0, 1), payload).ticket());
        }
        Ticket<String> unsent = two.get(0);
        Ticket<String> next = two.get(1);
        clock.nowNanos += 5 * MS;
        s.abandon(unsent);
        assertEquals(Ticket.State.CANCELLED, unsent.state());
        assertEquals(List.of("a", "b"), dispatchedPayloads(), "the next ticket takes the place");
        assertEquals(1, s.inflight());
        assertEquals(0, s.admission().model().sampleCount(), "no service time for a request never sent");
        assertThrows(IllegalStateException.class, () -> s.abandon(unsent));
        s.complete(next);
        assertEquals(1, s.admission().model().sampleCount());
    }

    @Test
    void evaluate_changesNothing() {
        DeadlineScheduler<String> s = scheduler(SchedulerConfig.paperMode());
        Decision<String> d = s.evaluate(TicketRequest.hardRead("t", 0, 10 * MS));
        assertTrue(d.admitted());
        assertNull(d.ticket());
        assertEquals(0, s.queueLength());
        assertEquals(0, s.inflight());
    }

    /**
     * Refusals are counted by cause: cold-start estimates of 0.5 ms per request and 0.1 ms guard, so a 2 ms gold read
     * behind 4 bronze reads in flight (2.5 ms) is late only because of bronze, a 0.5 ms one is late even alone, and a
     * 2.5 ms one behind 4 more gold reads is late because of gold's own work.
     */
    @Test
    void refusals_areCountedByWhatMadeThemLate() {
        ServiceLevels levels = new ServiceLevels(
                List.of(TenantServiceLevel.of("g", ServiceLevel.GOLD), TenantServiceLevel.of("b", ServiceLevel.BRONZE)),
                ServiceLevel.GOLD,
                ServiceLevels.DEFAULT_URGENT_THRESHOLD,
                Duration.ofSeconds(1));
        DeadlineScheduler<String> s = new DeadlineScheduler<>(SchedulerConfig.defaults(), levels, clock, recorder);
        for (int i = 0; i < 4; i++) {
            s.offer(TicketRequest.bestEffortRead("b", 0, TicketRequest.NO_DEADLINE), "b" + i);
        }
        assertEquals(
                RejectReason.DEADLINE_INFEASIBLE,
                s.offer(TicketRequest.hardRead("g", 0, 2 * MS), "lower").reason());
        assertEquals(
                RejectReason.DEADLINE_INFEASIBLE,
                s.offer(TicketRequest.hardRead("g", 0, 500 * US), "idle").reason());
        for (int i = 0; i < 4; i++) {
            s.offer(TicketRequest.bestEffortRead("g", 0, TicketRequest.NO_DEADLINE), "g" + i);
        }
        assertEquals(
                RejectReason.DEADLINE_INFEASIBLE,
                s.offer(TicketRequest.hardRead("g", 0, 2500 * US), "own").reason());
        assertTrue(s.offer(TicketRequest.hardRead("g", 0, 50 * MS), "admitted").admitted());
        Map<String, String> stats = levels.statsLines();
        assertEquals("4", stats.get("locus_level:gold:offers"));
        assertEquals("1", stats.get("locus_level:gold:lower_load"));
        assertEquals("1", stats.get("locus_level:gold:idle_infeasible"));
        assertEquals("1", stats.get("locus_level:gold:own_load"));
        assertEquals("0", stats.get("locus_level:gold:tenant_quota"));
        assertEquals("0", stats.get("locus_level:bronze:offers"), "best-effort offers are not counted");
        dispatched.stream()
                .filter(t -> t.payload().startsWith("b"))
                .forEach(t -> assertEquals(ServiceLevel.BRONZE, t.level()));
    }

    /** MicroFuge §4.3: urgent hard reads (deadline < 32 ms) draw on the tenant's bucket; others pass. */
    @Test
    void urgentQuota_emptyBucket_rejectsWithTenantQuota() {
        ServiceLevels levels = new ServiceLevels(
                List.of(new TenantServiceLevel("greedy", ServiceLevel.BRONZE, 1.0, 2)),
                ServiceLevel.GOLD,
                ServiceLevels.DEFAULT_URGENT_THRESHOLD,
                Duration.ofSeconds(1));
        DeadlineScheduler<String> s = new DeadlineScheduler<>(SchedulerConfig.defaults(), levels, clock, recorder);
        assertTrue(s.offer(TicketRequest.hardRead("greedy", 0, 20 * MS), "1").admitted());
        assertTrue(s.offer(TicketRequest.hardRead("greedy", 0, 20 * MS), "2").admitted());
        Decision<String> third = s.offer(TicketRequest.hardRead("greedy", 0, 20 * MS), "3");
        assertEquals(RejectReason.TENANT_QUOTA, third.reason());
        assertEquals("tenant quota", third.reason().serverErrorText(0));
        assertTrue(s.offer(TicketRequest.hardRead("greedy", 0, 40 * MS), "slow").admitted(), "not urgent");
        assertTrue(s.offer(TicketRequest.hardRead("other", 0, 20 * MS), "o").admitted(), "other tenant");
        clock.nowNanos = 1_000 * MS;
        assertTrue(
                s.offer(TicketRequest.hardRead("greedy", clock.nowNanos, 20 * MS), "4")
                        .admitted(),
                "one token refilled after 1 s");
    }

    @Test
    void rejectReasons_mapToSpecReplyTexts() {
        Map<RejectReason, String> expected = new HashMap<>();
        expected.put(RejectReason.DEADLINE_INFEASIBLE, "deadline reject est=1234");
        expected.put(RejectReason.WOULD_BREAK_ADMITTED, "deadline reject est=1234");
        expected.put(RejectReason.QUEUE_FULL, "deadline reject est=1234");
        expected.put(RejectReason.TENANT_QUOTA, "tenant quota");
        expected.put(RejectReason.DEADLINE_EXCEEDED, "deadline exceeded");
        for (RejectReason r : RejectReason.values()) {
            assertEquals(expected.get(r), r.serverErrorText(1234), r.name());
        }
    }

    @Test
    void badRequests_haveMessagesWithValues() {
        assertEquals(
                "deadline 0 ns for a hard request (expected: > 0)",
                assertThrows(IllegalArgumentException.class, () -> TicketRequest.hardRead("t", 0, 0))
                        .getMessage());
        assertEquals(
                "deadline -5 ns for a best-effort request (expected: > 0 or NO_DEADLINE)",
                assertThrows(IllegalArgumentException.class, () -> TicketRequest.bestEffortRead("t", 0, -5))
                        .getMessage());
        assertEquals(
                "sched.window 0 (expected: 1..65536)",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SchedulerConfig.defaults().withWindow(0))
                        .getMessage());
        assertEquals(
                "admission.target_miss 1.5 (expected: in (0, 1))",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> SchedulerConfig.defaults().withTargetMiss(1.5))
                        .getMessage());
    }
}
