package io.locus.memcached.server;

import io.locus.memcached.backend.Backend;
import io.locus.memcached.backend.BackendPool;
import io.locus.memcached.backend.RequestHandler;
import io.locus.memcached.deadline.DeadlineHandler;
import io.locus.memcached.stats.StatsGroups;
import io.locus.memcached.stats.StatsTable;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** The text of the {@code stats} command, answered by the proxy itself from its {@link StatsTable}. */
final class StatsCommand {
    private StatsCommand() {}

    /**
     * The reply to {@code stats [backends|tenants|deadline|lb]}, ending in {@code END}, or null for another argument
     * (the client gets {@code ERROR}). {@code pool} and {@code handler} are the asking connection's I/O thread's.
     */
    static String reply(List<String> args, StatsTable table, Supplier<BackendPool> pools, RequestHandler handler) {
        StringBuilder sb = new StringBuilder();
        if (args.isEmpty()) {
            appendLines(sb, table.all());
        } else if (args.equals(List.of("backends"))) {
            BackendPool pool = pools.get();
            for (int i = 0; i < pool.size(); i++) {
                Backend b = pool.backend(i);
                sb.append("STAT backend:").append(i).append(":addr ").append(b).append("\r\n");
                sb.append("STAT backend:")
                        .append(i)
                        .append(":state ")
                        .append(b.state())
                        .append("\r\n");
                sb.append("STAT backend:")
                        .append(i)
                        .append(":outstanding ")
                        .append(b.outstanding())
                        .append("\r\n");
                schedulerLines(sb, handler, i);
            }
        } else if (args.equals(List.of("tenants"))) {
            appendLines(sb, StatsGroups.tenants(table.group(StatsTable.DEADLINE)));
        } else if (args.equals(List.of("deadline"))) {
            if (handler instanceof DeadlineHandler) {
                appendLines(sb, StatsGroups.deadline(table.group(StatsTable.DEADLINE)));
                BackendPool pool = pools.get();
                for (int i = 0; i < pool.size(); i++) {
                    schedulerLines(sb, handler, i);
                }
            } else {
                sb.append("STAT mode pass_through\r\n");
            }
        } else if (args.equals(List.of("lb"))) {
            appendLines(sb, table.group(StatsTable.LB));
        } else {
            return null;
        }
        return sb.append("END\r\n").toString();
    }

    private static void appendLines(StringBuilder sb, Map<String, String> lines) {
        lines.forEach(
                (k, v) -> sb.append("STAT ").append(k).append(' ').append(v).append("\r\n"));
    }

    /** This I/O thread's scheduler of backend {@code i}, if the deadline path runs. */
    private static void schedulerLines(StringBuilder sb, RequestHandler handler, int i) {
        if (handler instanceof DeadlineHandler dh) {
            io.locus.memcached.schedule.DeadlineScheduler<?> s = dh.scheduler(i);
            sb.append("STAT backend:")
                    .append(i)
                    .append(":queue ")
                    .append(s.queueLength())
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":inflight ")
                    .append(s.inflight())
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":service_mean_us ")
                    .append((long) s.admission().model().meanNanos() / 1000)
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":service_quantile_us ")
                    .append(s.admission().model().quantileNanos() / 1000)
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":kappa ")
                    .append(String.format(
                            java.util.Locale.ROOT, "%.3f", s.admission().kappa()))
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":deadlines_met ")
                    .append(s.admission().totalMet())
                    .append("\r\n");
            sb.append("STAT backend:")
                    .append(i)
                    .append(":deadlines_missed ")
                    .append(s.admission().totalMissed())
                    .append("\r\n");
        }
    }
}
