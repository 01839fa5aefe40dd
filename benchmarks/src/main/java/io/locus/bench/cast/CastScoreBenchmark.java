package io.locus.bench.cast;

import io.locus.hdfs.cast.model.CastModel;
import io.locus.hdfs.cast.model.Evaluation;
import io.locus.hdfs.cast.model.IncrementalEvaluator;
import io.locus.hdfs.cast.model.Workload;
import io.locus.hdfs.cast.solve.CastProblem;
import io.locus.hdfs.cast.solve.Score;
import java.util.SplittableRandom;
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
 * The step every CAST search repeats, CAST++ utility objective:
 *
 * <ul>
 *   <li>{@code scoreMove}: one move of simulated annealing or OptaPlanner (one reuse group to another tier, levels
 *       unchanged), re-scored by {@link CastProblem#score}, which moves the group's jobs in its {@link
 *       IncrementalEvaluator} and evaluates the tiers;
 *   <li>{@code incrementalMoveJob}: the evaluator alone, one job moved ({@link IncrementalEvaluator#place}) and the
 *       verdict taken ({@link IncrementalEvaluator#evaluate});
 *   <li>{@code fullEvaluate}: the full model, {@link CastModel#evaluate} over every job (Eqs. 4.2-4.7: each job's
 *       runtime estimate on its tier, capacities, $vm + $store), which greedy and the final report use.
 * </ul>
 *
 * <p>Workloads: {@code table-4.4} (100 jobs, 3 shared datasets) and {@code swim-1000} (the first 1,000
 * FB-2010 SWIM jobs). Moves are drawn once with a fixed seed over all tiers; the levels are each tier's second level
 * (over-provisioned), as the solvers' hints use.
 *
 * <p>Run: {@code ./locus bench jmh bench.cast}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx512m")
public class CastScoreBenchmark {
    private static final int MOVES = 4096;

    @Param({CastWorkloads.TABLE_44, CastWorkloads.SWIM_1000})
    public String workload;

    private CastModel model;
    private CastProblem problem;
    private IncrementalEvaluator evaluator;
    private int[] tierOfGroup;
    private int[] levelOfTier;
    private double[] floors;
    private int[] tierOfJob;
    private int[] moveGroup;
    private int[] moveJob;
    private int[] moveTier;
    private int next;

    @Setup
    public void setUp() {
        Workload w = CastWorkloads.named(workload);
        model = new CastModel(w, true);
        problem = new CastProblem(model);
        int tiers = problem.tiers();
        SplittableRandom random = new SplittableRandom(42);
        tierOfGroup = new int[problem.groups()];
        for (int g = 0; g < tierOfGroup.length; g++) {
            tierOfGroup[g] = random.nextInt(tiers);
        }
        levelOfTier = new int[tiers];
        for (int t = 0; t < tiers; t++) {
            levelOfTier[t] = Math.min(1, problem.levels(t).length - 1);
        }
        floors = problem.floors(levelOfTier);
        tierOfJob = problem.tierOfJob(tierOfGroup);
        evaluator = new IncrementalEvaluator(model);
        for (int j = 0; j < tierOfJob.length; j++) {
            evaluator.place(j, tierOfJob[j]);
        }
        problem.score(tierOfGroup, levelOfTier);
        moveGroup = new int[MOVES];
        moveJob = new int[MOVES];
        moveTier = new int[MOVES];
        for (int i = 0; i < MOVES; i++) {
            moveGroup[i] = random.nextInt(tierOfGroup.length);
            moveJob[i] = random.nextInt(tierOfJob.length);
            moveTier[i] = random.nextInt(tiers);
        }
    }

    @Benchmark
    public Score scoreMove() {
        int i = next++ & (MOVES - 1);
        tierOfGroup[moveGroup[i]] = moveTier[i];
        return problem.score(tierOfGroup, levelOfTier);
    }

    @Benchmark
    public double[] incrementalMoveJob() {
        int i = next++ & (MOVES - 1);
        evaluator.place(moveJob[i], moveTier[i]);
        return evaluator.evaluate(floors);
    }

    @Benchmark
    public Evaluation fullEvaluate() {
        int i = next++ & (MOVES - 1);
        tierOfJob[moveJob[i]] = moveTier[i];
        return model.evaluate(tierOfJob, floors);
    }
}
