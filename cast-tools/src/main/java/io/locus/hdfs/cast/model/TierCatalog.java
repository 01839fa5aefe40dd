package io.locus.hdfs.cast.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An ordered set of tiers with unique names; tiers are referred to by their index in solvers and evaluations.
 *
 * <p>{@link #paper()} is Table 4.1 of Yue Cheng's dissertation (Google Cloud, January 2015) mapped onto HDFS storage
 * types: ephSSD on SSD, persSSD on DISK, persHDD on ARCHIVE, objStore outside HDFS.
 */
public final class TierCatalog {
    private final List<Tier> tiers;

    public TierCatalog(List<Tier> tiers) {
        if (tiers.isEmpty()) {
            throw new IllegalArgumentException("a tier catalogue needs at least one tier");
        }
        this.tiers = List.copyOf(tiers);
        for (int i = 0; i < tiers.size(); i++) {
            Tier t = tiers.get(i);
            for (int j = 0; j < i; j++) {
                if (tiers.get(j).name().equals(t.name())) {
                    throw new IllegalArgumentException("tier " + t.name() + " is defined twice");
                }
            }
            for (String ref : new String[] {t.backingTier(), t.intermediateTier()}) {
                if (ref != null && tiers.stream().noneMatch(o -> o.name().equals(ref))) {
                    throw new IllegalArgumentException("tier " + t.name() + " refers to unknown tier " + ref);
                }
            }
        }
    }

    private static final double[] PD_LEVELS = {0, 100, 150, 200, 250, 300, 400, 500};

    /** ephSSD: 375 GB local SSD volumes, at most 4 per VM, 733 MB/s each; lost with the VM, backed by objStore. */
    public static final Tier EPH_SSD = new Tier(
            "ephSSD",
            "SSD",
            null,
            0.218,
            new double[][] {{375, 733}, {750, 1466}, {1125, 2199}, {1500, 2932}},
            100_000,
            375,
            1500,
            375,
            false,
            "objStore",
            null,
            false,
            0,
            Double.POSITIVE_INFINITY,
            new double[] {0, 750, 1125, 1500});
    /** persSSD: network SSD whose throughput grows with the volume (48/118/234 MB/s at 100/250/500 GB). */
    public static final Tier PERS_SSD = new Tier(
            "persSSD",
            "DISK",
            null,
            0.17,
            new double[][] {{0, 0}, {100, 48}, {250, 118}, {500, 234}},
            15_000,
            100,
            Double.POSITIVE_INFINITY,
            0,
            true,
            null,
            null,
            false,
            0,
            Double.POSITIVE_INFINITY,
            PD_LEVELS);
    /** persHDD: network HDD, 20/45/97 MB/s at 100/250/500 GB. */
    public static final Tier PERS_HDD = new Tier(
            "persHDD",
            "ARCHIVE",
            null,
            0.04,
            new double[][] {{0, 0}, {100, 20}, {250, 45}, {500, 97}},
            750,
            100,
            Double.POSITIVE_INFINITY,
            0,
            true,
            null,
            null,
            false,
            0,
            Double.POSITIVE_INFINITY,
            PD_LEVELS);
    /**
     * objStore: the object store, 265 MB/s per VM whatever is stored, billed per GB used; intermediate data goes to
     * persSSD; each small file costs a request.
     */
    public static final Tier OBJ_STORE = new Tier(
            "objStore",
            "EXTERNAL",
            null,
            0.026,
            new double[][] {{0, 265}},
            550,
            0,
            Double.POSITIVE_INFINITY,
            0,
            true,
            null,
            "persSSD",
            true,
            0.5,
            Double.POSITIVE_INFINITY,
            new double[] {0});

    /** Table 4.1 of the dissertation, in its order. */
    public static TierCatalog paper() {
        return new TierCatalog(List.of(EPH_SSD, PERS_SSD, PERS_HDD, OBJ_STORE));
    }

    public int size() {
        return tiers.size();
    }

    public Tier get(int index) {
        return tiers.get(index);
    }

    public List<Tier> all() {
        return Collections.unmodifiableList(tiers);
    }

    /** Index of the tier named {@code name}, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < tiers.size(); i++) {
            if (tiers.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The tier names, in order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        tiers.forEach(t -> names.add(t.name()));
        return names;
    }
}
