package io.locus.cassandra.balance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which vnodes a heavy node gives away (decision 2 of DESIGN.md, "HDLB": the rule that reproduces the thesis's Table
 * 6.1): sort by weight, descending; always keep the first; keep each further vnode only while the kept sum stays &lt;=
 * W; shed the rest.
 */
public final class ShedSelection {
    private ShedSelection() {}

    /** The split of one node's vnodes into kept and shed, both in descending weight order. */
    public record Result(List<Vnode> keep, List<Vnode> shed) {}

    /** Applies the rule with the mean load {@code meanLoad} (W). Ties keep the input order. */
    public static Result select(List<Vnode> vnodes, double meanLoad) {
        List<Vnode> sorted = new ArrayList<>(vnodes);
        sorted.sort(Comparator.comparingLong(Vnode::weight).reversed());
        List<Vnode> keep = new ArrayList<>();
        List<Vnode> shed = new ArrayList<>();
        long kept = 0;
        for (Vnode v : sorted) {
            if (keep.isEmpty() || kept + v.weight() <= meanLoad) {
                keep.add(v);
                kept += v.weight();
            } else {
                shed.add(v);
            }
        }
        return new Result(keep, shed);
    }
}
