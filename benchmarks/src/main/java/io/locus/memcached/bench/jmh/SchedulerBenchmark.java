package io.locus.memcached.bench.jmh;

import io.locus.memcached.bench.Access;
import io.locus.memcached.bench.DeadlineRange;
import io.locus.memcached.schedule.DeadlineScheduler;
import io.locus.memcached.schedule.Decision;
import io.locus.memcached.schedule.SchedulerConfig;
import io.locus.memcached.schedule.Ticket;
import io.locus.memcached.schedule.TicketListener;
import io.locus.memcached.schedule.TicketRequest;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The deadline scheduler of one backend ({@link DeadlineScheduler}, default configuration: window 8, 16 demotions)
 * at a steady queue depth.
 *
 * <ul>
 *   <li>{@code enqueueDequeue}: one request offered (admission decision, EDF insertion with demotion counting,
 *       dispatch while the window has room) and the oldest dispatched one completed (latency model update, next
 *       dispatch). Requests are the {@link ProxyWorkload} stream: hard reads with their range's deadline from gold,
 *       silver and bronze, best-effort reads without; a refused hard read is offered again as best-effort, as the
 *       proxy's reissue path does, so the queue keeps its depth;</li>
 *   <li>{@code admission}: the admission decision alone ({@link DeadlineScheduler#evaluate}, which changes nothing):
 *       predicted finish, the deadline check, and whether the queued hard tickets behind it would still make theirs.</li>
 * </ul>
 * {@code queued}: tickets waiting behind the 8 dispatched ones. The clock is simulated (50 us per offer, the service
 * time of the emulated backends of {@code ./locus bench proxy} divided by the window), so every run makes the same
 * decisions.
 *
 * <p>Run: {@code ./locus bench jmh SchedulerBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class SchedulerBenchmark {
    private static final long STEP_NANOS = 50_000;

    @Param({"8", "64"})
    public int queued;

    private final long[] clock = {1_000_000_000L};
    private final ArrayDeque<Ticket<Integer>> dispatched = new ArrayDeque<>();
    private DeadlineScheduler<Integer> scheduler;
    private Access[] accesses;
    private int next;

    @Setup
    public void setUp() {
        accesses = ProxyWorkload.accesses();
        scheduler = new DeadlineScheduler<>(
                SchedulerConfig.defaults().withMaxQueue(1 << 16),
                ProxyWorkload.serviceLevels(),
                () -> clock[0],
                new TicketListener<>() {
                    @Override
                    public void dispatch(Ticket<Integer> ticket) {
                        dispatched.add(ticket);
                    }

                    @Override
                    public void expired(Ticket<Integer> ticket) {}
                });
        // Fill the window, then the queue, with best-effort reads; then let the workload's mix settle in.
        int window = SchedulerConfig.defaults().window();
        for (int i = 0; i < window + queued; i++) {
            scheduler.offer(TicketRequest.bestEffortRead("bronze", clock[0], TicketRequest.NO_DEADLINE), i);
        }
        for (int i = 0; i < 4 * ProxyWorkload.SIZE; i++) {
            enqueueDequeue();
        }
        if (scheduler.queueLength() != queued || scheduler.inflight() != window) {
            throw new IllegalStateException("queue " + scheduler.queueLength() + ", in flight " + scheduler.inflight()
                    + " (expected: " + queued + ", " + window + ")");
        }
    }

    private TicketRequest request(Access a) {
        long now = clock[0];
        return a.range() == DeadlineRange.BEST_EFFORT
                ? TicketRequest.bestEffortRead(ProxyWorkload.tenant(a), now, TicketRequest.NO_DEADLINE)
                : TicketRequest.hardRead(ProxyWorkload.tenant(a), now, ProxyWorkload.deadlineNanos(a));
    }

    @Benchmark
    public Decision<Integer> enqueueDequeue() {
        clock[0] += STEP_NANOS;
        int i = next++;
        Access a = accesses[i & ProxyWorkload.MASK];
        Decision<Integer> d = scheduler.offer(request(a), i);
        if (!d.admitted()) {
            d = scheduler.offer(
                    TicketRequest.bestEffortRead(ProxyWorkload.tenant(a), clock[0], TicketRequest.NO_DEADLINE), i);
        }
        scheduler.complete(dispatched.poll());
        return d;
    }

    @Benchmark
    public Decision<Integer> admission() {
        Access a = accesses[next++ & ProxyWorkload.MASK];
        return scheduler.evaluate(TicketRequest.hardRead(
                ProxyWorkload.tenant(a),
                clock[0],
                ProxyWorkload.deadlineNanos(a.range() == DeadlineRange.BEST_EFFORT ? DeadlineRange.R3 : a.range())));
    }
}
