package io.locus.hdfs.cast.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.PaperWorkloads;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The paper workloads in {@code examples/} are exactly what {@link PaperWorkloads} builds, written by
 * {@link WorkloadFiles}, so the files users plan with are the workloads the tests evaluate. After a change to
 * {@code PaperWorkloads}, rewrite them from the module directory with
 * {@code java -cp target/test-classes:target/classes:$(cat target/classpath.txt)
 * io.locus.hdfs.cast.io.ExampleWorkloadsTest examples}.
 */
public class ExampleWorkloadsTest {
    private static final Path EXAMPLES = Path.of("examples");

    /** Example file name → the workload it holds. */
    static Map<String, Workload> paperExamples() {
        Map<String, Workload> m = new TreeMap<>();
        m.put("table-4.4.yaml", PaperWorkloads.table44(Cluster.DEFAULT, TierCatalog.paper()));
        m.put("workflows.yaml", PaperWorkloads.workflows(Cluster.DEFAULT, TierCatalog.paper()));
        return m;
    }

    @Test
    void examples_areWhatPaperWorkloadsBuilds(@TempDir Path dir) throws IOException {
        for (Map.Entry<String, Workload> e : paperExamples().entrySet()) {
            Path fresh = dir.resolve(e.getKey());
            WorkloadFiles.write(e.getValue(), fresh);
            List<String> want = Files.readAllLines(fresh);
            List<String> have = Files.readAllLines(EXAMPLES.resolve(e.getKey()));
            for (int i = 0; i < Math.min(want.size(), have.size()); i++) {
                if (!want.get(i).equals(have.get(i))) {
                    fail("examples/" + e.getKey() + " line " + (i + 1) + " is '" + have.get(i) + "', PaperWorkloads"
                            + " writes '" + want.get(i) + "' (rewrite the examples: see this class's comment)");
                }
            }
            assertEquals(want.size(), have.size(), "lines in examples/" + e.getKey());
            Workload back = WorkloadFiles.read(EXAMPLES.resolve(e.getKey()), TierCatalog.paper());
            assertEquals(e.getValue().jobs(), back.jobs(), e.getKey());
            assertEquals(e.getValue().workflows(), back.workflows(), e.getKey());
        }
    }

    /** Rewrites the paper example files in the directory {@code args[0]} (default {@code examples}). */
    public static void main(String[] args) {
        Path out = Path.of(args.length > 0 ? args[0] : "examples");
        for (Map.Entry<String, Workload> e : paperExamples().entrySet()) {
            WorkloadFiles.write(e.getValue(), out.resolve(e.getKey()));
            System.out.println("wrote " + out.resolve(e.getKey()));
        }
    }
}
