package io.locus.hdfs;

import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * The policy's metrics in the NameNode's own channel, Hadoop metrics2: a source named {@value #NAME} in context
 * {@code dfs}, so the NameNode's {@code /jmx} shows it as {@code Hadoop:service=NameNode,name=CastPlacementPolicy} and
 * every metrics2 sink (file, Ganglia, Prometheus through {@code /prom}) gets it.
 *
 * <p>Counters: placements decided by the plan (every target in the planned group), by the default policy (paths the plan
 * does not restrict) and fallbacks (a planned path whose group could not hold every replica, so the default's choice
 * was used); plan reloads and reload errors (each distinct problem once, as it is logged). Gauges: the plan's version (how many times a plan was loaded), how many
 * jobs it places, and its age in seconds (-1 before a plan was loaded). Counters add up over the process's policies.
 */
final class CastPlacementMetrics implements MetricsSource {
    static final String NAME = "CastPlacementPolicy";

    private static final MetricsInfo RECORD = Interns.info(NAME, "CAST block placement by plan");
    private static final MetricsInfo BY_PLAN =
            Interns.info("PlacementsByPlan", "Placements with every target in the path's planned DataNode group");
    private static final MetricsInfo BY_DEFAULT =
            Interns.info("PlacementsByDefault", "Placements of paths the plan does not restrict (default policy)");
    private static final MetricsInfo FALLBACKS = Interns.info(
            "PlacementFallbacks", "Planned paths whose group could not hold every replica: the default's choice used");
    private static final MetricsInfo RELOADS = Interns.info("PlanReloads", "Plan files read and validated");
    private static final MetricsInfo RELOAD_ERRORS =
            Interns.info("PlanReloadErrors", "Plan files that could not be read or did not validate");
    private static final MetricsInfo VERSION =
            Interns.info("PlanVersion", "How many plans were loaded so far (changes with every new plan)");
    private static final MetricsInfo JOBS = Interns.info("PlannedJobs", "Jobs the current plan places");
    private static final MetricsInfo AGE = Interns.info("PlanAgeSeconds", "Seconds since the current plan was loaded");

    final LongAdder byPlan = new LongAdder();
    final LongAdder byDefault = new LongAdder();
    final LongAdder fallbacks = new LongAdder();
    final LongAdder reloads = new LongAdder();
    final LongAdder reloadErrors = new LongAdder();
    private volatile long loadedAtMillis = -1;
    private volatile int plannedJobs;

    void planLoaded(int jobs) {
        plannedJobs = jobs;
        loadedAtMillis = System.currentTimeMillis();
        reloads.increment();
    }

    /** Every path is on the default placement now; {@code newProblem}: counted once per distinct problem, as logged. */
    void planFailed(boolean newProblem) {
        plannedJobs = 0;
        loadedAtMillis = -1;
        if (newProblem) {
            reloadErrors.increment();
        }
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        long loaded = loadedAtMillis;
        collector
                .addRecord(RECORD)
                .setContext("dfs")
                .addCounter(BY_PLAN, byPlan.sum())
                .addCounter(BY_DEFAULT, byDefault.sum())
                .addCounter(FALLBACKS, fallbacks.sum())
                .addCounter(RELOADS, reloads.sum())
                .addCounter(RELOAD_ERRORS, reloadErrors.sum())
                .addGauge(VERSION, reloads.sum())
                .addGauge(JOBS, plannedJobs)
                .addGauge(AGE, loaded < 0 ? -1 : (System.currentTimeMillis() - loaded) / 1000);
    }

    private static final CastPlacementMetrics PROCESS = new CastPlacementMetrics();

    /**
     * The process's one source, registered under {@value #NAME} if the metrics system does not have it (yet, or again
     * after a restart of the metrics system). One per process, not per policy: the NameNode builds a policy for
     * {@code -format} and another per start, and the metrics system may re-register a source it was given before, so
     * per-policy sources can leave JMX showing one that never places a block.
     */
    static CastPlacementMetrics registered() {
        MetricsSystem system = DefaultMetricsSystem.instance();
        synchronized (CastPlacementMetrics.class) {
            if (system.getSource(NAME) == null) {
                system.register(NAME, RECORD.description(), PROCESS);
            }
        }
        return PROCESS;
    }
}
