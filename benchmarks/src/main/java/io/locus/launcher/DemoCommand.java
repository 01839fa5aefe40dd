package io.locus.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code ./locus demo}: starts each real host and does a round trip through it (a status table), then shows each
 * plugin at work in its host. Every step runs in a JVM of its own with its stderr in {@code target/demo-*.log}; a
 * failed step does not stop the ones after it, and the demo exits 1 if any failed.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Start each real host (Cassandra, HDFS, GlusterFS, memcached), do a round trip on each, print a"
                + " status table; then each plugin in its host. The build is the caller's (./locus demo builds first).")
public final class DemoCommand implements Callable<Integer> {
    /** A host check: the host, its fixture module, and the main that starts it and prints a LOCUS-ROW line. */
    record HostCheck(String host, String module, String main) {}

    static final List<HostCheck> HOST_CHECKS = List.of(
            new HostCheck("cassandra", "integration-tests/cassandra", "io.locus.cassandra.fixture.CassandraHostCheck"),
            new HostCheck("hdfs", "integration-tests/hdfs", "io.locus.hdfs.fixture.HdfsHostCheck"),
            new HostCheck("glusterfs", "integration-tests/gluster", "io.locus.gluster.fixture.GlusterHostCheck"),
            new HostCheck("memcached", "integration-tests/memcached", "io.locus.memcached.fixture.MemcachedHostCheck"));

    // C1 only: these JVMs are short-lived, and on 2 cores C2's compile threads cost more than they win.
    private static final List<String> C1 = List.of("-XX:TieredStopAtLevel=1");

    private final Checkout checkout;
    private final PrintStream out;
    private final PrintStream err;
    private boolean failed;

    public DemoCommand(Checkout checkout, PrintStream out, PrintStream err) {
        this.checkout = checkout;
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        Path root = checkout.root();
        Files.createDirectories(root.resolve("target"));
        hostChecks();

        // Every 2nd path (56,497): the whole namespace takes 45-90 s to insert on a busy 2-core machine (DropDemo DIR 1
        // loads it all).
        say("locus demo: DROP on a real Cassandra node: 16 planned tokens, half of the dpkg namespace, one directory"
                + " listed as one range scan, rows per token range (~1-2 min; log in target/demo-drop-node.log) ...");
        step(
                List.of(),
                checkout.hostClassPath("drop-tools"),
                "io.locus.demo.drop.DropDemo",
                List.of(abs("drop-tools/target/demo-node"), "2"),
                "target/demo-drop-node.log",
                false);

        say("locus demo: VirtCache on GlusterFS: the translator on a real brick, the CloudPhysics trace replayed with"
                + " VirtCache off, on, and redirected, qemu-io through the NBD export (~1 min; log in"
                + " target/demo-virtcache.log) ...");
        step(
                List.of(),
                checkout.hostClassPath("gluster-virtcache"),
                "io.locus.demo.virtcache.VirtCacheDemo",
                List.of(
                        abs("gluster-virtcache/target/demo"),
                        abs("data/cloudphysics/cloudPhysicsIO.csv"),
                        "3000",
                        abs(Checkout.TRANSLATOR)),
                "target/demo-virtcache.log",
                false);

        say("locus demo: VirtCache under interference: the same 500 trace requests offered at 300/s alone and then with"
                + " a competing fio gfapi job on the disk's brick, plain libgfapi (with and without Gluster's io-cache"
                + " and read-ahead) vs write off-loading only vs VirtCache, p50/p90/p99 (~1 min; ./locus bench virtcache"
                + " runs 1,000 in 5 rounds and the translator on vs off under fio readv; log in"
                + " target/demo-virtcache-interference.log) ...");
        step(
                List.of(),
                checkout.hostClassPath("gluster-virtcache"),
                "io.locus.bench.virtcache.VirtCacheBench",
                List.of(
                        abs("gluster-virtcache/target/demo-interference"),
                        abs("data/cloudphysics/cloudPhysicsIO.csv"),
                        abs(Checkout.TRANSLATOR),
                        "20000",
                        "500",
                        "--rounds",
                        "1",
                        "--readv-rounds",
                        "0",
                        "--readv-together",
                        "0",
                        "--detector-rounds",
                        "0",
                        "--pairs",
                        "0",
                        "--rate",
                        "300"),
                "target/demo-virtcache-interference.log",
                false);

        say("locus demo: DROP: balance and directory locality on a real namespace (the dpkg file list), 16 nodes ...");
        step(
                List.of(),
                checkout.classPath("drop-tools"),
                "io.locus.cassandra.cli.DropCommand",
                List.of(
                        "evaluate",
                        "--keys",
                        "cassandra-partitioner/src/test/resources/namespace/debian-dpkg-paths.txt.gz",
                        "--nodes",
                        "16"),
                "target/demo-drop.log",
                false);

        say("locus demo: CAST on HDFS: plan 400 FB-2010 jobs (predicted cost and runtime per configuration), plan the"
                + " workflow workload and apply it to a MiniDFSCluster running the placement policy, verify where the"
                + " blocks are (~1 min; log in target/demo-cast.log) ...");
        step(
                C1,
                checkout.hostClassPath("cast-tools"),
                "io.locus.demo.cast.CastDemo",
                List.of(abs("data/swim"), abs("cast-tools/target/demo-cast"), abs("cast-tools/examples")),
                "target/demo-cast.log",
                false);

        // Open loop: every row gets the same offered load (one Poisson stream), so each tenant's deadlines met compare;
        // in a closed loop a refused read is answered at once and its client sends the next, so Locus would carry more.
        for (String load : List.of("0.8", "1.2")) {
            say("locus demo: memcached proxy: three tenants with deadlines against slowed memcached servers, direct vs"
                    + " twemproxy vs Locus, the same offered load for each: open loop at " + load + "x the servers'"
                    + " capacity (~35 s) ...");
            step(
                    List.of(),
                    checkout.classPath("benchmarks"),
                    "io.locus.memcached.bench.ProxyBench",
                    List.of(
                            "--quick",
                            "--load",
                            load,
                            "--rows",
                            "direct,twemproxy,locus-dlc-dls",
                            "--warmup",
                            "2",
                            "--memcaslap-rounds",
                            "0",
                            "--out",
                            abs("target/demo-proxy-" + load),
                            "--proxy-jar",
                            checkout.proxyJar()),
                    "target/demo-proxy-" + load + ".log",
                    true);
            say("locus demo: chart of that run: target/demo-proxy-" + load + "/proxy-bench.png");
            out.println();
        }
        say("locus demo: memcached proxy load balancing: Zipf 0.99 on 4 capacity-limited backends, balancer off vs"
                + " Phase 1, backend imbalance in 2 rounds (4-second windows are too short to compare p99: ./locus"
                + " bench proxy-balance does; ~35 s) ...");
        step(
                List.of(),
                checkout.classPath("benchmarks"),
                "io.locus.memcached.bench.BalanceBench",
                List.of("--quick", "--out", abs("target/demo-balance"), "--proxy-jar", checkout.proxyJar()),
                "target/demo-balance.log",
                true);
        say("locus demo: imbalance over time: target/demo-balance/proxy-balance.png");
        out.println();
        out.flush();
        if (failed) {
            say("locus: at least one step failed; see target/demo-*.log");
            return 1;
        }
        return 0;
    }

    private void hostChecks() throws IOException {
        List<String[]> rows = new ArrayList<>();
        int i = 0;
        for (HostCheck check : HOST_CHECKS) {
            i++;
            String host = check.host();
            String module = check.module();
            String log = "target/demo-" + host + ".log";
            Path stdout = checkout.path("target/demo-" + host + ".out");
            say("locus demo: [" + i + "/" + HOST_CHECKS.size() + "] " + host
                    + ": starting the real host and doing a round trip (log in " + log + ") ...");
            int status = ChildCommand.java(
                            C1, checkout.classPath(module), check.main(), List.of(abs(module + "/target/demo")))
                    .runToFiles(checkout.root(), stdout, checkout.path(log));
            String[] row = HostCheckRow.parse(Files.readAllLines(stdout));
            if (status != 0 || row == null) {
                failed = true;
            }
            rows.add(row != null ? row : HostCheckRow.failed(host, log));
        }
        out.println();
        out.print(HostCheckRow.table(rows));
        out.println();
        out.flush();
    }

    /** One step: stdout on the screen (without '#' comment lines when asked), stderr into {@code log}. */
    private void step(
            List<String> flags, String classPath, String main, List<String> args, String log, boolean dropComments) {
        int status;
        try {
            status = ChildCommand.java(flags, classPath, main, args)
                    .run(
                            checkout.root(),
                            line -> {
                                if (!dropComments || !line.startsWith("#")) {
                                    out.println(line);
                                    out.flush();
                                }
                            },
                            checkout.path(log));
        } catch (RuntimeException e) {
            say("locus demo: " + main + ": " + e.getMessage());
            status = 1;
        }
        if (status != 0) {
            failed = true;
        }
        if (!dropComments) {
            out.println();
            out.flush();
        }
    }

    private String abs(String relative) {
        return checkout.path(relative).toString();
    }

    private void say(String message) {
        err.println(message);
        err.flush();
    }
}
