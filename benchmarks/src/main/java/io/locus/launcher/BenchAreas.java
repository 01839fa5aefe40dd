package io.locus.launcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Every area of {@code ./locus bench}, in the order {@code ./locus bench} lists them. */
public final class BenchAreas {
    private static final String BENCHMARKS = "benchmarks";
    private static final String JMH_MAIN = "org.openjdk.jmh.Main";
    private static final List<String> MAVEN = List.of("mvn", "-B", "-ntp");

    private BenchAreas() {}

    public static List<BenchArea> all() {
        return List.of(
                new BenchArea("jmh", """
                        every JMH benchmark (or those matching a regex), %s unless given, plus CPU time per
                        operation (-prof io.locus.bench.compare.CpuTimeProfiler); JSON into target/bench/jmh-COMMIT.json
                        (with --save also benchmarks/results/), e.g. ./locus bench jmh 'memcached.bench.jmh' -p kind=GET
                        """.formatted(String.join(" ", JmhArgs.DEFAULTS)), BenchAreas::jmh),
                new BenchArea(
                        "compare",
                        """
                        OLD.json NEW.json [--threshold 10] [--metric cpu.time.norm]: per benchmark new/old time with the error;
                        exit 1 if one is slower by more than the threshold (percent) beyond the error
                        """,
                        (run, args) -> run.java(
                                List.of(), benchmarks(run), "io.locus.bench.compare.CompareCommand", args, null)),
                new BenchArea("drop", """
                        getToken of DropPartitioner vs Murmur3Partitioner vs ByteOrderedPartitioner, JMH and one partitioner
                        per JVM side by side (Murmur3's fast and slow JIT modes shown), then drop-evaluate
                        (with arguments: only JMH, e.g. ./locus bench drop TokenBenchmark -p keys=TYPICAL)
                        """, BenchAreas::drop),
                new BenchArea("cast", """
                        CAST solvers: solve time and utility of greedy, its baselines, sa and optaplanner on 100 (Table 4.4),
                        1,000, 10,000 and 25,428 (FB-2010) jobs; optaplanner vs the best of 10 sa runs (job counts as arguments);
                        then NameNode create+addBlock/s with the default placement policy and with CastBlockPlacementPolicy
                        """, BenchAreas::cast),
                new BenchArea("drop-evaluate", """
                        DROP vs Murmur3, DirHash, static subtree, ByteOrdered on the 1.65M paths of Debian bookworm
                        (downloads Contents-amd64.gz, 11.6 MB, into ${XDG_CACHE_HOME:-~/.cache}/locus once); 16 nodes, 1 and 16 vnodes
                        """, BenchAreas::dropEvaluate),
                new BenchArea(
                        "drop-cluster",
                        "real forked DROP clusters: rebalance on 3 nodes, rebalance --execute (JMX moves) on 2 (~5 min)",
                        // Forked multi-node clusters take minutes on a small machine: kept out of `./locus test`.
                        (run, args) -> run.tool(BenchRun.concat(
                                maven(
                                        "-pl",
                                        "drop-tools",
                                        "-am",
                                        "verify",
                                        "-Dlocus.drop.clusterIT=true",
                                        "-Dit.test=DropRebalanceIT,DropRebalanceExecuteIT",
                                        "-Dtest=none",
                                        "-Dsurefire.failIfNoSpecifiedTests=false",
                                        "-Dfailsafe.failIfNoSpecifiedTests=false"),
                                args))),
                new BenchArea(
                        "proxy", """
                        memcached: direct vs twemproxy vs Locus (pass-through, DLC, DLC+DLS), then the proxy-memcaslap comparison
                        (--memcaslap-rounds 0 skips it); --quick for ~2.5 min
                        """, (run, args) -> proxyBench(run, "io.locus.memcached.bench.ProxyBench", args)),
                new BenchArea(
                        "proxy-memcaslap",
                        """
                        memcached: libmemcached's memcaslap (-T1 -c32, 100-byte values) against one memcached -t 1: its 90/10
                        get/set mix direct vs twemproxy vs Locus pass-through vs Locus full, and a hot-read mix (99/1 on recent
                        keys) direct vs Locus full (default, and io_threads: 2); 4 interleaved rounds of 10 s, per-round ratios; ~6 min
                        """,
                        (run, args) -> proxyBench(run, "io.locus.memcached.bench.MemcaslapBench", args)),
                new BenchArea(
                        "proxy-latency",
                        """
                        memcached: latency added by twemproxy and the Locus proxy over direct memcached, one get per path per
                        round in random order (paired), 2 busy loops; ~1.5 min
                        """,
                        (run, args) -> proxyBench(run, "io.locus.memcached.bench.LatencyProbe", args)),
                new BenchArea(
                        "proxy-balance",
                        """
                        memcached: backend imbalance and p99 (p99/off per round), balancer off vs Phase 1 vs Phases 1+3 vs
                        twemproxy, interleaved rounds; ~10 min, --traces none 3-4 min, --quick ~35 s
                        """,
                        (run, args) -> proxyBench(run, "io.locus.memcached.bench.BalanceBench", args)),
                new BenchArea(
                        "proxy-balance-planner",
                        "Phase 3 bucket moves chosen by the planner on 4 real memcached servers (~1 min)",
                        // Timing-dependent on a loaded 2-core machine, so kept out of `./locus test` (migration
                        // correctness is tested there through the Java trigger).
                        (run, args) -> run.tool(BenchRun.concat(
                                maven(
                                        "-pl",
                                        "memcached-proxy",
                                        "-am",
                                        "verify",
                                        "-Dlocus.lb.plannerIT=true",
                                        "-Dit.test=MigrationIT",
                                        "-Dtest=none",
                                        "-Dsurefire.failIfNoSpecifiedTests=false",
                                        "-Dfailsafe.failIfNoSpecifiedTests=false"),
                                args))),
                new BenchArea("virtcache", """
                        GlusterFS: 1,000 CloudPhysics trace requests against a victim disk, alone and with a competing fio
                        gfapi job on its brick: plain libgfapi (also with io-cache and read-ahead) vs write off-loading only
                        vs VirtCache, 5 rounds, p50/p90/p99; 3 rounds in which VirtCache's own detector redirects (times
                        from fio's start to redirected and from its end to normal); the two at-most-5% overhead targets
                        (VirtCache vs plain, translator on vs off under fio readv) decided from paired rounds with a
                        bootstrap interval (~10 min); --servers emulated|shared|auto: each brick and fio as a separate
                        server (cgroup v1 CPU quota and disk throttle; auto: where cgroups are usable); --cpu-shares N
                        """, BenchAreas::virtcache));
    }

    private static String benchmarks(BenchRun run) {
        return run.checkout().classPath(BENCHMARKS);
    }

    private static List<String> maven(String... args) {
        return BenchRun.concat(MAVEN, List.of(args));
    }

    private static int proxyBench(BenchRun run, String main, List<String> args) {
        return run.java(
                List.of(),
                benchmarks(run),
                main,
                BenchRun.concat(List.of("--proxy-jar", run.checkout().proxyJar()), args),
                null);
    }

    private static int jmh(BenchRun run, List<String> given) throws Exception {
        Path json = run.root().resolve(ResultFile.RUN_DIR).resolve("jmh-" + ThisMachine.commit(run.root()) + ".json");
        Files.createDirectories(json.getParent());
        List<String> args = JmhArgs.of(given, run.root().relativize(json).toString());
        run.say("locus bench jmh: java " + JMH_MAIN + " " + String.join(" ", args));
        long started = System.currentTimeMillis();
        int status = run.java(List.of(), benchmarks(run), JMH_MAIN, args, null);
        // Only when this run wrote it: -l, -h and friends run nothing.
        if (JmhArgs.writesJson(given)
                && Files.isRegularFile(json)
                && Files.getLastModifiedTime(json).toMillis() >= started - 1000) {
            run.say("locus bench jmh: JSON results in " + run.root().relativize(json)
                    + " (compare two runs: ./locus bench compare OLD.json NEW.json)");
            if (run.save()) {
                run.say("locus bench jmh: saved as " + run.root().relativize(ResultFile.save(run.root(), json)));
            }
        }
        return status;
    }

    private static int drop(BenchRun run, List<String> args) throws Exception {
        if (!args.isEmpty()) {
            return run.java(List.of(), benchmarks(run), JMH_MAIN, args, null);
        }
        Path log = run.root().resolve("target/jmh-token.log");
        run.say("locus bench drop: [1/3] JMH getToken: DROP vs Murmur3 vs ByteOrdered (-f 2 -wi 3 -i 5, about 5 min;"
                + " log in target/jmh-token.log) ...");
        int jmh = ChildCommand.java(
                        List.of(),
                        benchmarks(run),
                        JMH_MAIN,
                        List.of(
                                "TokenBenchmark",
                                "-f",
                                "2",
                                "-wi",
                                "3",
                                "-i",
                                "5",
                                "-rf",
                                "json",
                                "-rff",
                                "target/jmh-token.json"))
                .runToFiles(run.root(), log, log);
        if (jmh != 0) {
            List<String> lines = Files.readAllLines(log);
            lines.subList(Math.max(0, lines.size() - 20), lines.size()).forEach(run::say);
            run.say("locus: JMH failed");
            return 1;
        }
        run.say("locus bench drop: [2/3] getToken with one partitioner per JVM (3 JVMs each, about 2 min), printed next"
                + " to JMH ...");
        int forked = run.java(
                List.of(),
                benchmarks(run),
                "io.locus.bench.cassandra.TokenCostForked",
                List.of("--forks", "3", "--rounds", "60", "--jmh", "target/jmh-token.json"),
                null);
        if (forked != 0) {
            return forked;
        }
        run.say("locus bench drop: [3/3] evaluate on Debian bookworm's file list ...");
        return dropEvaluate(run, List.of());
    }

    private static int dropEvaluate(BenchRun run, List<String> args) throws Exception {
        Path keys = DebianPaths.inUserCache().keys(run);
        for (String vnodes : List.of("1", "16")) {
            run.say("locus bench drop-evaluate: --nodes 16 --vnodes " + vnodes + " on " + keys + " ...");
            List<String> evaluate = new ArrayList<>(
                    List.of("evaluate", "--keys", keys.toString(), "--nodes", "16", "--vnodes", vnodes));
            evaluate.addAll(args);
            int status = run.java(
                    List.of("-Xmx3g"),
                    run.checkout().classPath("drop-tools"),
                    "io.locus.cassandra.cli.DropCommand",
                    evaluate,
                    null);
            if (status != 0) {
                return status;
            }
        }
        return 0;
    }

    private static int cast(BenchRun run, List<String> args) {
        run.say("locus bench cast: [1/2] solvers on 100 to 25,428 jobs ...");
        int solve = run.java(
                List.of("-Xmx3g"),
                run.checkout().classPath("cast-tools"),
                "io.locus.hdfs.cast.bench.SolveBench",
                BenchRun.concat(List.of(run.root().resolve("data/swim").toString()), args),
                null);
        if (solve != 0) {
            return solve;
        }
        run.say("locus bench cast: [2/2] NameNode create+addBlock/s, BlockPlacementPolicyDefault vs"
                + " CastBlockPlacementPolicy (~2 min) ...");
        // C1 only: a short run, in which C2's compile threads would take cores from the NameNode it measures.
        return run.java(
                List.of("-XX:TieredStopAtLevel=1"),
                run.checkout().hostClassPath("cast-tools"),
                "io.locus.bench.cast.NameNodeBench",
                List.of(
                        "2000",
                        "3",
                        run.root().resolve("cast-tools/target/nn-bench").toString()),
                run.root().resolve("target/bench-cast-nn.log"));
    }

    private static int virtcache(BenchRun run, List<String> args) {
        Path root = run.root();
        return run.java(
                List.of(),
                run.checkout().hostClassPath("gluster-virtcache"),
                "io.locus.bench.virtcache.VirtCacheBench",
                BenchRun.concat(
                        List.of(
                                root.resolve("gluster-virtcache/target/bench").toString(),
                                root.resolve("data/cloudphysics/cloudPhysicsIO.csv")
                                        .toString(),
                                root.resolve(Checkout.TRANSLATOR).toString()),
                        args),
                null);
    }
}
