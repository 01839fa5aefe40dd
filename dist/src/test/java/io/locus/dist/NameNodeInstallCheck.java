package io.locus.dist;

import io.locus.hdfs.fixture.TieredMiniCluster;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The NameNode half of {@link HostInstallIT}, run in a child JVM whose class path is Hadoop's plus the policy jar the
 * install note copied into {@code share/hadoop/hdfs/lib/}: starts a NameNode with
 * {@code dfs.block.replicator.classname} set as the note says, writes a file, and prints on stdout where the policy
 * class came from and the policy's metrics2 record as the NameNode's {@code /jmx} serves it, once that record has
 * counted the file's blocks (metrics2 publishes snapshots, so it is polled, up to 60 s).
 *
 * <p>Usage: {@code NameNodeInstallCheck DIR}; exit 0 when both lines were printed.
 */
public final class NameNodeInstallCheck {
    static final String POLICY = "io.locus.hdfs.CastBlockPlacementPolicy";
    static final String SOURCE_LINE = "policy-source ";
    static final String JMX_LINE = "policy-jmx ";
    static final int FILE_BYTES = (5 << 20) / 2;

    private NameNodeInstallCheck() {}

    public static void main(String[] args) throws Exception {
        PrintStream stdout = System.out;
        System.setOut(System.err); // stdout carries only the two result lines
        try (TieredMiniCluster cluster = TieredMiniCluster.builder()
                .baseDir(Path.of(args[0]))
                .placementPolicy(POLICY)
                .build()) {
            byte[] data = new byte[FILE_BYTES];
            new Random(7).nextBytes(data);
            cluster.writeFile(new org.apache.hadoop.fs.Path("/install-check/data.bin"), data);
            stdout.println(SOURCE_LINE
                    + Class.forName(POLICY)
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .getPath());
            InetSocketAddress http = cluster.miniDfsCluster().getNameNode().getHttpAddress();
            URL url = new URL(
                    "http://127.0.0.1:" + http.getPort() + "/jmx?qry=Hadoop:service=NameNode,name=CastPlacementPolicy");
            long deadline = System.nanoTime() + 60_000_000_000L;
            String json = read(url);
            while (!json.matches("(?s).*\"PlacementsByDefault\"\\s*:\\s*[1-9].*") && System.nanoTime() < deadline) {
                Thread.sleep(500);
                json = read(url);
            }
            stdout.println(JMX_LINE + json.replaceAll("\\s+", " "));
        }
        stdout.flush();
        // Hadoop leaves non-daemon threads draining for a moment; the result is already out.
        System.exit(0);
    }

    private static String read(URL url) throws Exception {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
