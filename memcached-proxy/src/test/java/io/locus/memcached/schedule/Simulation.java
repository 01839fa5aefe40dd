package io.locus.memcached.schedule;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.LongSupplier;

/**
 * A deterministic discrete-event simulation: a virtual clock, an event queue, and a backend with
 * {@code servers} FIFO servers whose service times come from a seeded sampler. It stands in for a slow
 * backend (the SlowShim model of DESIGN.md, "How it is measured") to test scheduling logic, never as proof against real
 * memcached.
 */
final class Simulation implements LongSupplier {
    private record Event(long at, long seq, Runnable action) {}

    private final PriorityQueue<Event> events =
            new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long now;
    private long seq;

    @Override
    public long getAsLong() {
        return now;
    }

    void at(long when, Runnable action) {
        events.add(new Event(Math.max(when, now), seq++, action));
    }

    void run() {
        while (!events.isEmpty()) {
            Event e = events.poll();
            now = e.at;
            e.action.run();
        }
    }

    /** Lognormal service times with the given mean and coefficient of variation. */
    static LongSupplier lognormal(Random rnd, double meanNanos, double cv) {
        double sigma2 = Math.log(1 + cv * cv);
        double mu = Math.log(meanNanos) - sigma2 / 2;
        double sigma = Math.sqrt(sigma2);
        return () -> (long) Math.exp(mu + sigma * rnd.nextGaussian());
    }

    /** A FIFO backend with {@code servers} parallel servers, wired to one scheduler as its listener. */
    static final class Backend implements TicketListener<Integer> {
        private final Simulation sim;
        private final int servers;
        private final LongSupplier serviceNanos;
        private final ArrayDeque<Ticket<Integer>> waiting = new ArrayDeque<>();
        private int busy;
        private long busyNanos;
        DeadlineScheduler<Integer> scheduler;
        final List<Ticket<Integer>> dispatched = new ArrayList<>();
        final List<Ticket<Integer>> expired = new ArrayList<>();

        Backend(Simulation sim, int servers, LongSupplier serviceNanos) {
            this.sim = sim;
            this.servers = servers;
            this.serviceNanos = serviceNanos;
        }

        @Override
        public void dispatch(Ticket<Integer> ticket) {
            dispatched.add(ticket);
            if (busy < servers) {
                start(ticket);
            } else {
                waiting.add(ticket);
            }
        }

        @Override
        public void expired(Ticket<Integer> ticket) {
            expired.add(ticket);
        }

        private void start(Ticket<Integer> ticket) {
            busy++;
            long s = serviceNanos.getAsLong();
            busyNanos += s;
            sim.at(sim.now + s, () -> {
                busy--;
                Ticket<Integer> next = waiting.poll();
                if (next != null) {
                    start(next);
                }
                scheduler.complete(ticket);
            });
        }

        long busyNanos() {
            return busyNanos;
        }
    }
}
