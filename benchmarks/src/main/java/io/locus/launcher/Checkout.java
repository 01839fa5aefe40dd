package io.locus.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a build of this repository left what the launcher runs: each module's classes and the class path files Maven's
 * dependency plugin wrote ({@code target/classpath.txt}, runtime scope; {@code target/test-classpath.txt}, test scope).
 */
public final class Checkout {
    /** The brick translator the GlusterFS demo and bench load, relative to the checkout. */
    public static final String TRANSLATOR = "gluster-virtcache-xlator/target/xlator/virtcache.so";

    private final Path root;

    public Checkout(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    public Path path(String relative) {
        return root.resolve(relative);
    }

    /** {@code module}'s classes and its runtime dependencies: what its own mains run on. */
    public String classPath(String module) {
        return join(List.of(path(module + "/target/classes").toString(), read(module, "classpath.txt")));
    }

    /**
     * The benchmarks' classes in front of {@code module}'s test class path: for the demos and host benches, which are
     * compiled here against that module's host fixture and test helpers and run with them.
     */
    public String hostClassPath(String module) {
        return join(List.of(
                path("benchmarks/target/classes").toString(),
                path(module + "/target/test-classes").toString(),
                path(module + "/target/classes").toString(),
                read(module, "test-classpath.txt")));
    }

    /** The memcached proxy's runnable jar, as the benches take it ({@code --proxy-jar}). */
    public String proxyJar() {
        return "memcached-proxy/target/locus-memcached-proxy-" + io.locus.cli.BuildVersion.get() + ".jar";
    }

    private String read(String module, String file) {
        Path p = path(module + "/target/" + file);
        if (!Files.isRegularFile(p)) {
            throw new IllegalStateException(p + " missing: the build of " + module + " did not finish");
        }
        try {
            return Files.readString(p).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String join(List<String> parts) {
        List<String> nonEmpty = new ArrayList<>();
        for (String p : parts) {
            if (!p.isEmpty()) {
                nonEmpty.add(p);
            }
        }
        return String.join(java.io.File.pathSeparator, nonEmpty);
    }
}
