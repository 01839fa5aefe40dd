package io.locus.bench.compare;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads the JSON file JMH writes with {@code -rf json}: an array with one object per benchmark and parameter set. */
public final class JmhResults {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JmhResults() {}

    /** A results file that cannot be used; the message names the file, the entry and what was expected. */
    public static final class BadResultsException extends Exception {
        BadResultsException(String message) {
            super(message);
        }

        BadResultsException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The primary metrics of one file; see {@link #read(Path, String)}. */
    public static Map<String, JmhResult> read(Path file) throws BadResultsException {
        return read(file, null);
    }

    /**
     * The results of one file, keyed by {@link JmhResult#key()}, in file order.
     *
     * @param metric null for JMH's primary metric (the score), else the name of a secondary metric (a profiler's,
     *     e.g. {@code cpu.time.norm} of {@link CpuTimeProfiler}; JMH's leading {@code \u00b7} may be left out)
     * @throws BadResultsException if the file is missing or unreadable, is not JSON, is not a JMH result array, an
     *     entry lacks a field or the metric, or has a non-positive score, or the same benchmark and parameters appear
     *     twice
     */
    public static Map<String, JmhResult> read(Path file, String metric) throws BadResultsException {
        JsonNode root;
        try {
            root = MAPPER.readTree(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new BadResultsException(file + ": no such file (expected: a JMH result file written with -rf json)");
        } catch (JacksonException e) {
            throw new BadResultsException(
                    file + ": not valid JSON (" + e.getOriginalMessage() + " at line "
                            + e.getLocation().getLineNr() + "; expected: a JMH result file written with -rf json)",
                    e);
        } catch (IOException e) {
            throw new BadResultsException(file + ": cannot be read: " + e, e);
        }
        if (root == null || !root.isArray()) {
            throw new BadResultsException(file + ": top level is "
                    + (root == null ? "empty" : root.getNodeType().toString().toLowerCase())
                    + " (expected: the array of results JMH writes with -rf json)");
        }
        if (root.isEmpty()) {
            throw new BadResultsException(file + ": holds no benchmark results (expected: at least one)");
        }
        Map<String, JmhResult> out = new LinkedHashMap<>();
        for (int i = 0; i < root.size(); i++) {
            JmhResult r = entry(file, i, root.get(i), metric);
            if (out.put(r.key(), r) != null) {
                throw new BadResultsException(
                        file + ": entry " + i + ": " + r.key() + " appears twice (expected: once per file)");
            }
        }
        return out;
    }

    private static JmhResult entry(Path file, int index, JsonNode e, String metricName) throws BadResultsException {
        String where = file + ": entry " + index;
        if (!e.isObject()) {
            throw new BadResultsException(
                    where + " is " + e.getNodeType().toString().toLowerCase()
                            + " (expected: an object with benchmark, mode and primaryMetric)");
        }
        String benchmark = text(where, e, "benchmark");
        where += " (" + benchmark + ")";
        String mode = text(where, e, "mode");
        TreeMap<String, String> params = new TreeMap<>();
        JsonNode p = e.get("params");
        if (p != null && !p.isNull()) {
            if (!p.isObject()) {
                throw new BadResultsException(where + ": params is "
                        + p.getNodeType().toString().toLowerCase() + " (expected: an object of name: value)");
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                params.put(f.getKey(), f.getValue().asText());
            }
        }
        String m = metricName == null ? "primaryMetric" : "secondaryMetrics." + metricName;
        JsonNode metric = metricName == null ? e.get("primaryMetric") : secondary(where, e, metricName);
        if (metric == null || !metric.isObject()) {
            throw new BadResultsException(where + ": no " + m + " object (expected: score, scoreError, scoreUnit)");
        }
        double score = number(where, metric, m, "score", false);
        if (!(score > 0) || Double.isInfinite(score)) {
            throw new BadResultsException(where + ": " + m + ".score " + score + " (expected: a positive number)");
        }
        double error = number(where, metric, m, "scoreError", true);
        if (error < 0) {
            throw new BadResultsException(where + ": " + m + ".scoreError " + error + " (expected: >= 0 or NaN)");
        }
        String unit = text(where + ": " + m, metric, "scoreUnit");
        return new JmhResult(benchmark, mode, params, score, error, unit);
    }

    private static JsonNode secondary(String where, JsonNode e, String name) throws BadResultsException {
        JsonNode all = e.get("secondaryMetrics");
        if (all != null && all.isObject()) {
            JsonNode m = all.has(name) ? all.get(name) : all.get("\u00b7" + name);
            if (m != null) {
                return m;
            }
        }
        List<String> names = new ArrayList<>();
        if (all != null) {
            all.fieldNames().forEachRemaining(names::add);
        }
        throw new BadResultsException(where + ": no secondary metric \"" + name + "\" (has: "
                + (names.isEmpty() ? "none" : String.join(", ", names))
                + "; expected: a run with the profiler that writes it, e.g. -prof " + CpuTimeProfiler.class.getName()
                + " for cpu.time.norm)");
    }

    private static String text(String where, JsonNode node, String field) throws BadResultsException {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new BadResultsException(where + ": field \"" + field + "\" is "
                    + (v == null ? "missing" : v.toString()) + " (expected: a non-empty string)");
        }
        return v.asText();
    }

    /** A number; JMH writes NaN (an error it could not estimate) as the string "NaN". */
    private static double number(String where, JsonNode node, String metric, String field, boolean nanAllowed)
            throws BadResultsException {
        JsonNode v = node.get(field);
        if (v != null && v.isNumber()) {
            return v.asDouble();
        }
        if (nanAllowed && v != null && v.isTextual() && v.asText().equals("NaN")) {
            return Double.NaN;
        }
        throw new BadResultsException(
                where + ": primaryMetric." + field + " is " + (v == null ? "missing" : v.toString())
                        + " (expected: a number" + (nanAllowed ? " or \"NaN\")" : ")"));
    }
}
