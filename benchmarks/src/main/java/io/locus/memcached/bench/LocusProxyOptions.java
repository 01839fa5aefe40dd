package io.locus.memcached.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options of every harness that starts the Locus proxy ({@code @Mixin}): its jar, extra JVM options of the proxy
 * child, and extra configuration keys.
 */
final class LocusProxyOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(
            names = "--proxy-jar",
            description = "the proxy's shaded jar (default: memcached-proxy/target/" + ProxyBench.JAR_NAME
                    + " from the repository root or from benchmarks/)")
    Path jar;

    @Option(
            names = "--proxy-jvm-arg",
            description = "extra JVM option of the Locus proxy child, repeatable; {row} is replaced by the row name "
                    + "(e.g. -XX:StartFlightRecording=filename=/tmp/{row}.jfr)")
    List<String> jvmArgs = new ArrayList<>();

    @Option(
            names = "--proxy-set",
            description = "extra top-level configuration line of every Locus proxy, repeatable, "
                    + "e.g. --proxy-set 'io_threads: 1'")
    List<String> settingLines = new ArrayList<>();

    /** The jar given, or the reactor's build of it. */
    Path jar() {
        return jar != null ? jar : ProxyBench.defaultJar();
    }

    /** The JVM options for the proxy of {@code row}. */
    List<String> jvmArgs(String row) {
        return jvmArgs.stream().map(a -> a.replace("{row}", row)).toList();
    }

    /**
     * The {@code --proxy-set} keys and values, in order (a later line wins).
     *
     * @throws CommandLine.ParameterException naming the line if one is not a {@code key: value} YAML line
     */
    Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (String line : settingLines) {
            try {
                settings.putAll(LocusProxy.parseLine(line));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(mixee.commandLine(), "--proxy-set: " + e.getMessage());
            }
        }
        return settings;
    }

    /** Whether any configuration key or JVM option was added. */
    boolean customised() {
        return !settingLines.isEmpty() || !jvmArgs.isEmpty();
    }

    /** The added keys and JVM options, for a result table's header; empty if none. */
    String describe() {
        return String.join("; ", settingLines) + (jvmArgs.isEmpty() ? "" : " JVM " + String.join(" ", jvmArgs));
    }
}
