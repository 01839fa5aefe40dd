package io.locus.memcached.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One scrape of a {@code /metrics} page, parsed strictly: every line must be a comment ({@code # HELP}, {@code # TYPE},
 * {@code # UNIT}, and {@code # EOF} last in OpenMetrics) or a sample {@code name{labels} value} whose family was
 * declared by a {@code # TYPE} line before it, and no series may appear twice. A page that breaks a rule is refused
 * with the offending line.
 */
public final class PrometheusPage {
    public static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private static final Pattern SAMPLE =
            Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\",?)*\\})?"
                    + " (-?[0-9.eE+-]+|NaN|\\+Inf|-Inf)( [0-9.eE+-]+)?");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped|unknown|info"
                    + "|stateset|gaugehistogram)");
    private static final String[] SUFFIXES = {"_total", "_created", "_bucket", "_count", "_sum", "_info", ""};

    public final String contentType;
    public final String body;
    /** Series ({@code name{labels}} as written) to value. */
    public final Map<String, Double> series = new LinkedHashMap<>();
    /** Family name to its {@code # TYPE}. */
    public final Map<String, String> types = new HashMap<>();

    private PrometheusPage(String contentType, String body, boolean openMetrics) {
        this.contentType = contentType;
        this.body = body;
        String[] lines = body.split("\n", -1);
        if (!lines[lines.length - 1].isEmpty()) {
            throw new IllegalArgumentException("the page does not end with a newline");
        }
        Set<String> seen = new HashSet<>();
        boolean eof = false;
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            if (eof) {
                throw new IllegalArgumentException("line " + (i + 1) + " after # EOF: " + line);
            }
            if (line.equals("# EOF") && openMetrics) {
                eof = true;
                continue;
            }
            if (line.startsWith("# HELP ") || line.startsWith("# UNIT ")) {
                continue;
            }
            Matcher t = TYPE.matcher(line);
            if (t.matches()) {
                if (types.put(t.group(1), t.group(2)) != null) {
                    throw new IllegalArgumentException("line " + (i + 1) + " declares a family twice: " + line);
                }
                continue;
            }
            Matcher s = SAMPLE.matcher(line);
            if (!s.matches()) {
                throw new IllegalArgumentException("line " + (i + 1) + " is not a sample: " + line);
            }
            if (family(s.group(1)) == null) {
                throw new IllegalArgumentException("line " + (i + 1) + " has no # TYPE before it: " + line);
            }
            String key = s.group(1) + (s.group(2) == null ? "" : s.group(2));
            if (!seen.add(key)) {
                throw new IllegalArgumentException("line " + (i + 1) + " repeats a series: " + line);
            }
            series.put(key, Double.parseDouble(s.group(3).replace("+Inf", "Infinity")));
        }
        if (openMetrics && !eof) {
            throw new IllegalArgumentException("an OpenMetrics page without # EOF");
        }
    }

    private String family(String sampleName) {
        for (String suffix : SUFFIXES) {
            if (sampleName.endsWith(suffix)) {
                String f = sampleName.substring(0, sampleName.length() - suffix.length());
                if (types.containsKey(f)) {
                    return f;
                }
            }
        }
        return null;
    }

    /** {@code GET http://127.0.0.1:<port>/metrics}, with {@code accept} as the Accept header when not null. */
    public static PrometheusPage scrape(InetSocketAddress address, String accept)
            throws IOException, InterruptedException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + "/metrics"));
        if (accept != null) {
            b.header("Accept", accept);
        }
        HttpResponse<String> r = HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /metrics: HTTP " + r.statusCode() + ": " + r.body());
        }
        String type = r.headers().firstValue("Content-Type").orElse("");
        return new PrometheusPage(type, r.body(), type.startsWith("application/openmetrics-text"));
    }

    /** Parses {@code body} as the Prometheus text format. */
    public static PrometheusPage parse(String body) {
        return new PrometheusPage("text/plain", body, false);
    }

    /** The value of one series, {@code name{labels}} exactly as the page writes it; 0 when absent. */
    public double value(String series) {
        return this.series.getOrDefault(series, 0.0);
    }

    /**
     * The {@code # TYPE} of a family: the Prometheus text format declares a counter under its sample name
     * ({@code x_total}), OpenMetrics under the family name ({@code x}); either is found by {@code x}.
     */
    public String type(String family) {
        return types.getOrDefault(family, types.get(family + "_total"));
    }

    /** Whether any series' name starts with {@code prefix}. */
    public boolean has(String prefix) {
        return series.keySet().stream().anyMatch(k -> k.startsWith(prefix));
    }
}
