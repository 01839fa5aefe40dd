package io.locus.cassandra.cli;

import io.locus.cassandra.balance.NamespaceMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Balance and locality (DESIGN.md, "Metrics") of one placement of the keys, as text and as a JSON-ready map. */
record PlacementReport(
        String scheme,
        NamespaceMetrics.Balance balance,
        List<NamespaceMetrics.DepthLocality> depths,
        NamespaceMetrics.DepthLocality deep,
        NamespaceMetrics.DepthLocality listing) {
    static PlacementReport of(String scheme, List<String> keys, int[] owner, int nodes) {
        return of(scheme, keys, owner, nodes, new long[nodes]);
    }

    /**
     * The report of one placement; {@code extraKeys[n]} keys that are not in the sample (the reserved region's
     * estimate) count towards node n's balance.
     */
    static PlacementReport of(String scheme, List<String> keys, int[] owner, int nodes, long[] extraKeys) {
        NamespaceMetrics m = new NamespaceMetrics(nodes);
        long[] load = extraKeys.clone();
        for (int i = 0; i < keys.size(); i++) {
            m.add(keys.get(i), owner[i]);
            load[owner[i]]++;
        }
        return new PlacementReport(
                scheme,
                NamespaceMetrics.balanceOf(load),
                List.of(m.subtreeLocality(1), m.subtreeLocality(2), m.subtreeLocality(3)),
                m.subtreeLocalityAtLeast(2),
                m.listingLocality());
    }

    static String header() {
        return String.format(
                "%-28s %9s %9s %10s %10s %10s %12s %11s",
                "scheme", "max/mean", "max/min", "N@depth1", "N@depth2", "N@depth3", "1-node>=d2", "N(listing)");
    }

    String row() {
        return String.format(
                "%-28s %9.3f %9.3f %10.2f %10.2f %10.2f %11.1f%% %11.3f",
                scheme,
                balance.maxOverMean(),
                balance.maxOverMin(),
                depths.get(0).meanNodes(),
                depths.get(1).meanNodes(),
                depths.get(2).meanNodes(),
                100 * deep.singleNodeFraction(),
                listing.meanNodes());
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scheme", scheme);
        m.put("maxOverMean", balance.maxOverMean());
        m.put("maxOverMin", balance.maxOverMin());
        m.put("minKeys", balance.min());
        m.put("maxKeys", balance.max());
        for (NamespaceMetrics.DepthLocality d : depths) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("directories", d.directories());
            l.put("meanNodes", d.meanNodes());
            l.put("medianNodes", d.medianNodes());
            l.put("maxNodes", d.maxNodes());
            l.put("extraNodesPercent", d.extraNodesPercent());
            l.put("singleNodeFraction", d.singleNodeFraction());
            m.put("depth" + d.depth(), l);
        }
        m.put("singleNodeFractionDepthAtLeast2", deep.singleNodeFraction());
        m.put("directoriesDepthAtLeast2", deep.directories());
        m.put("listingMeanNodes", listing.meanNodes());
        m.put("listingSingleNodeFraction", listing.singleNodeFraction());
        return m;
    }
}
