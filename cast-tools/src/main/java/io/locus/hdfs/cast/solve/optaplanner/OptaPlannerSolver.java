package io.locus.hdfs.cast.solve.optaplanner;

import io.locus.hdfs.cast.solve.AnnealingSolver;
import io.locus.hdfs.cast.solve.Assignment;
import io.locus.hdfs.cast.solve.InitialPlans;
import io.locus.hdfs.cast.solve.Problem;
import io.locus.hdfs.cast.solve.Score;
import io.locus.hdfs.cast.solve.SolveOptions;
import io.locus.hdfs.cast.solve.Solver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.optaplanner.core.api.solver.SolverFactory;
import org.optaplanner.core.config.heuristic.selector.entity.EntitySelectorConfig;
import org.optaplanner.core.config.heuristic.selector.move.composite.UnionMoveSelectorConfig;
import org.optaplanner.core.config.heuristic.selector.move.generic.ChangeMoveSelectorConfig;
import org.optaplanner.core.config.heuristic.selector.move.generic.SwapMoveSelectorConfig;
import org.optaplanner.core.config.localsearch.LocalSearchPhaseConfig;
import org.optaplanner.core.config.localsearch.decider.acceptor.LocalSearchAcceptorConfig;
import org.optaplanner.core.config.localsearch.decider.forager.LocalSearchForagerConfig;
import org.optaplanner.core.config.solver.EnvironmentMode;
import org.optaplanner.core.config.solver.SolverConfig;
import org.optaplanner.core.config.solver.termination.TerminationConfig;

/**
 * CAST's annealing on OptaPlanner: one planning entity per placement group (its tier) and one per tier (its capacity
 * level); the greedy/single-tier best plan ({@link InitialPlans#best}) as the initial solution, so no construction
 * phase; one local-search phase of change and swap moves with OptaPlanner's simulated-annealing acceptor (starting
 * temperature 0.05 in ln-utility, as the reference annealer) and the first accepted move taken, as Algorithm 4 does.
 *
 * <p>OptaPlanner's annealing cools linearly over the termination budget (its time gradient), not geometrically per
 * accepted move; so its budget is the number of scored placements, which also keeps it reproducible: the same seed
 * and budget give the same plan ({@code EnvironmentMode.REPRODUCIBLE}).
 */
public final class OptaPlannerSolver implements Solver {
    @Override
    public String name() {
        return "optaplanner";
    }

    @Override
    public Assignment solve(Problem p, SolveOptions options) {
        Assignment start = InitialPlans.best(p);
        AtomicLong scored = new AtomicLong();
        long total = options.evaluations();
        Score[] best = {start.score(p)};
        Runnable onScore = () -> {
            long n = scored.incrementAndGet();
            if ((n & 255) == 0) {
                options.progress().update(Math.min(n, total), total, best[0]);
            }
        };
        List<GroupTier> groups = new ArrayList<>();
        for (int g = 0; g < p.groups(); g++) {
            groups.add(new GroupTier(g, start.tierOfGroup()[g]));
        }
        List<TierLevel> levels = new ArrayList<>();
        for (int t = 0; t < p.tiers(); t++) {
            List<Integer> range = IntStream.range(0, p.levels(t).length).boxed().toList();
            levels.add(new TierLevel(t, range, start.levelOfTier()[t]));
        }
        TieringSolution problem = new TieringSolution(
                IntStream.range(0, p.tiers()).boxed().toList(),
                groups,
                levels,
                new TieringSolution.ScoringContext(p, onScore));

        TerminationConfig termination = new TerminationConfig().withScoreCalculationCountLimit(total);
        if (options.timeLimit() != null) {
            termination = termination.withSpentLimit(options.timeLimit());
        }
        long startTemp = Math.round(AnnealingSolver.START_TEMPERATURE * TieringScoreCalculator.SOFT_SCALE);
        LocalSearchPhaseConfig localSearch = new LocalSearchPhaseConfig()
                .withMoveSelectorConfig(new UnionMoveSelectorConfig()
                        .withMoveSelectors(
                                new ChangeMoveSelectorConfig()
                                        .withEntitySelectorConfig(new EntitySelectorConfig(GroupTier.class)),
                                new ChangeMoveSelectorConfig()
                                        .withEntitySelectorConfig(new EntitySelectorConfig(TierLevel.class)),
                                new SwapMoveSelectorConfig()
                                        .withEntitySelectorConfig(new EntitySelectorConfig(GroupTier.class))))
                .withAcceptorConfig(new LocalSearchAcceptorConfig()
                        .withSimulatedAnnealingStartingTemperature("0hard/" + startTemp + "soft"))
                .withForagerConfig(new LocalSearchForagerConfig().withAcceptedCountLimit(1));
        SolverConfig config = new SolverConfig()
                .withSolutionClass(TieringSolution.class)
                .withEntityClasses(GroupTier.class, TierLevel.class)
                .withEasyScoreCalculatorClass(TieringScoreCalculator.class)
                .withEnvironmentMode(EnvironmentMode.REPRODUCIBLE)
                .withRandomSeed(options.seed())
                .withTerminationConfig(termination)
                .withPhases(localSearch);
        org.optaplanner.core.api.solver.Solver<TieringSolution> solver =
                SolverFactory.<TieringSolution>create(config).buildSolver();
        solver.addEventListener(
                e -> best[0] = p.score(tiersOf(e.getNewBestSolution()), levelsOf(e.getNewBestSolution())));
        TieringSolution solved = solver.solve(problem);
        options.progress().update(total, total, best[0]);
        return new Assignment(tiersOf(solved), levelsOf(solved));
    }

    private static int[] tiersOf(TieringSolution s) {
        int[] t = new int[s.getGroups().size()];
        s.getGroups().forEach(g -> t[g.getGroup()] = g.getTier());
        return t;
    }

    private static int[] levelsOf(TieringSolution s) {
        int[] l = new int[s.getTierLevels().size()];
        s.getTierLevels().forEach(t -> l[t.getTier()] = t.getLevel());
        return l;
    }
}
