package io.locus.hdfs.cast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The model names no Hadoop or OptaPlanner class, and the solvers keep OptaPlanner in their own package, so the model
 * and the plain-Java solvers can go where those libraries cannot (the NameNode).
 */
class CoreImportGuardTest {
    @Test
    void model_referencesNoHostOrSolverLibrary() throws IOException {
        assertEquals(List.of(), offenders("io/locus/hdfs/cast/model", "org/apache/hadoop", "org/optaplanner"));
    }

    @Test
    void plainSolvers_referenceNoHadoop_andOnlyTheRegistryKnowsOptaPlanner() throws IOException {
        List<String> bad = offenders("io/locus/hdfs/cast/solve", "org/apache/hadoop", "org/optaplanner").stream()
                .filter(f -> !f.contains("/optaplanner/") && !f.endsWith("Solvers.class"))
                .toList();
        assertEquals(List.of(), bad);
    }

    private static List<String> offenders(String pkg, String... forbidden) throws IOException {
        Path dir = Path.of("target/classes").resolve(pkg);
        assertTrue(Files.isDirectory(dir), "run from the module directory; missing " + dir.toAbsolutePath());
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> classes =
                    files.filter(p -> p.toString().endsWith(".class")).toList();
            assertTrue(classes.size() >= 5, "only " + classes.size() + " classes in " + dir);
            return classes.stream()
                    .filter(p -> {
                        try {
                            String pool = new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
                            for (String f : forbidden) {
                                if (pool.contains(f)) {
                                    return true;
                                }
                            }
                            return false;
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .map(Path::toString)
                    .toList();
        }
    }
}
