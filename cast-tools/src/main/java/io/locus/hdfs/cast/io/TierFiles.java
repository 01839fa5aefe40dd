package io.locus.hdfs.cast.io;

import io.locus.hdfs.cast.model.Tier;
import io.locus.hdfs.cast.model.TierCatalog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tier files ({@code schema: locus-cast-tiers/1}): the storage tiers a plan may use. See the module README for every
 * key; {@code throughputMBps} is a flat bandwidth, {@code throughputCurve} one that grows with per-VM capacity.
 */
public final class TierFiles {
    private TierFiles() {}

    public static final String SCHEMA = "locus-cast-tiers/1";
    /** HDFS storage types a tier may map to, plus EXTERNAL for a store outside HDFS. */
    public static final Set<String> STORAGE_TYPES =
            Set.of("RAM_DISK", "SSD", "DISK", "ARCHIVE", "NVDIMM", "PROVIDED", "EXTERNAL");

    private static final List<String> KEYS = List.of(
            "name",
            "storageType",
            "dataNodeGroup",
            "pricePerGbMonth",
            "throughputMBps",
            "throughputCurve",
            "iops",
            "minPerVmGb",
            "maxPerVmGb",
            "volumeGb",
            "persistent",
            "backingTier",
            "intermediateTier",
            "elastic",
            "perFileOverheadSec",
            "capacityLimitGb",
            "levels");

    public static TierCatalog read(Path p) {
        Node root = Documents.read(p, SCHEMA).object(List.of("schema", "tiers"));
        List<Tier> tiers = new ArrayList<>();
        for (Node n : root.required("tiers").list()) {
            tiers.add(tier(n));
        }
        if (tiers.isEmpty()) {
            throw root.get("tiers").error("a list of at least one tier");
        }
        for (int i = 0; i < tiers.size(); i++) {
            Tier t = tiers.get(i);
            for (int j = 0; j < i; j++) {
                if (tiers.get(j).name().equals(t.name())) {
                    throw root.get("tiers").list().get(i).get("name").error("a name no other tier has");
                }
            }
            List<String> names = tiers.stream().map(Tier::name).toList();
            Node src = root.get("tiers").list().get(i);
            for (String key : List.of("backingTier", "intermediateTier")) {
                Node ref = src.get(key);
                if (!ref.isMissing() && !names.contains(ref.string())) {
                    throw ref.error("the name of a tier in this file " + names);
                }
            }
        }
        return new TierCatalog(tiers);
    }

    private static Tier tier(Node n) {
        n.object(KEYS);
        String name = n.required("name").string();
        Node type = n.required("storageType");
        if (!STORAGE_TYPES.contains(type.string())) {
            throw type.error(
                    "an HDFS storage type " + STORAGE_TYPES.stream().sorted().toList());
        }
        double[][] curve;
        Node flat = n.get("throughputMBps");
        Node points = n.get("throughputCurve");
        if (flat.isMissing() == points.isMissing()) {
            throw (flat.isMissing() ? flat : points)
                    .error(
                            "exactly one of throughputMBps (a flat MB/s per VM) or throughputCurve ([[GB per VM, MB/s], ...])");
        }
        if (!flat.isMissing()) {
            curve = new double[][] {{0, flat.number(0.001, 1e7)}};
        } else {
            List<Node> pts = points.list();
            if (pts.isEmpty()) {
                throw points.error("a non-empty list of [GB per VM, MB/s] pairs");
            }
            curve = new double[pts.size()][];
            for (int i = 0; i < pts.size(); i++) {
                List<Node> pair = pts.get(i).list();
                if (pair.size() != 2) {
                    throw pts.get(i).error("a pair [GB per VM, MB/s]");
                }
                curve[i] = new double[] {pair.get(0).number(0, 1e9), pair.get(1).number(0, 1e7)};
                if (i > 0 && curve[i][0] <= curve[i - 1][0]) {
                    throw pair.get(0).error("a capacity larger than the previous point's " + curve[i - 1][0]);
                }
            }
        }
        boolean persistent = n.get("persistent").bool(true);
        Node backing = n.get("backingTier");
        if (!persistent && backing.isMissing()) {
            throw backing.error("the tier where this non-persistent tier's data persists");
        }
        double[] levels = {0};
        if (!n.get("levels").isMissing()) {
            List<Node> ls = n.get("levels").list();
            levels = new double[ls.size() + 1];
            for (int i = 0; i < ls.size(); i++) {
                levels[i + 1] = ls.get(i).number(0.001, 1e9);
            }
            Arrays.sort(levels);
        }
        return new Tier(
                name,
                type.string(),
                n.get("dataNodeGroup").string(null),
                n.required("pricePerGbMonth").number(0, 1e6),
                curve,
                n.get("iops").number(0, 1e12, 0),
                n.get("minPerVmGb").number(0, 1e9, 0),
                n.get("maxPerVmGb").number(0, Double.MAX_VALUE, Double.POSITIVE_INFINITY),
                n.get("volumeGb").number(0, 1e9, 0),
                persistent,
                backing.string(null),
                n.get("intermediateTier").string(null),
                n.get("elastic").bool(false),
                n.get("perFileOverheadSec").number(0, 3600, 0),
                n.get("capacityLimitGb").number(0, Double.MAX_VALUE, Double.POSITIVE_INFINITY),
                levels);
    }

    public static void write(TierCatalog tiers, Path p) {
        List<Object> list = new ArrayList<>();
        for (Tier t : tiers.all()) {
            List<Double> levels = new ArrayList<>();
            for (double l : t.levels()) {
                if (l > 0) {
                    levels.add(l);
                }
            }
            Map<String, Object> m = Documents.map(
                    "name", t.name(),
                    "storageType", t.storageType(),
                    "dataNodeGroup", t.dataNodeGroup(),
                    "pricePerGbMonth", t.pricePerGbMonth(),
                    "throughputMBps", t.curve().length == 1 ? t.curve()[0][1] : null,
                    "throughputCurve", t.curve().length == 1 ? null : t.curveAsList(),
                    "iops", t.iops(),
                    "minPerVmGb", t.minPerVmGb(),
                    "maxPerVmGb", Double.isInfinite(t.maxPerVmGb()) ? null : t.maxPerVmGb(),
                    "volumeGb", t.volumeGb(),
                    "persistent", t.persistent(),
                    "backingTier", t.backingTier(),
                    "intermediateTier", t.intermediateTier(),
                    "elastic", t.elastic(),
                    "perFileOverheadSec", t.perFileOverheadSec(),
                    "capacityLimitGb", Double.isInfinite(t.capacityLimitGb()) ? null : t.capacityLimitGb(),
                    "levels", levels.isEmpty() ? null : levels);
            list.add(m);
        }
        Documents.write(p, Documents.map("schema", SCHEMA, "tiers", list));
    }
}
