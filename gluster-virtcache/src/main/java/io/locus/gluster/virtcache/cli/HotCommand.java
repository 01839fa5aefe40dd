package io.locus.gluster.virtcache.cli;

import io.locus.cli.JsonOutput;
import io.locus.cli.OutputOptions;
import io.locus.gluster.gfapi.GlusterFile;
import io.locus.gluster.gfapi.GlusterVolume;
import io.locus.gluster.virtcache.hotblock.HotBlockFilter;
import io.locus.gluster.virtcache.hotblock.TranslatorStats;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;

/** {@code hot}: a disk file's counters, hottest blocks and filter, as the brick's translator reports them. */
@Command(
        name = "hot",
        mixinStandardHelpOptions = true,
        description =
                "Show a file's block counters, hottest blocks and hot-block filter from the virtcache translator.")
final class HotCommand implements Callable<Integer> {
    @Mixin
    VolumeOptions where = new VolumeOptions();

    @Mixin
    OutputOptions output;

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (GlusterVolume volume = where.connect(where.volume);
                GlusterFile file = volume.open(where.file, false)) {
            TranslatorStats stats = TranslatorStats.parse(file.getxattr(TranslatorStats.XATTR));
            HotBlockFilter filter = HotBlockFilter.read(file::getxattr);
            if (output.json) {
                Map<String, Object> root = new LinkedHashMap<>();
                root.put("volume", where.volume);
                root.put("file", where.file);
                Map<String, Object> counters = new LinkedHashMap<>();
                stats.asMap().forEach((k, v) -> {
                    if (!k.equals("top")) {
                        counters.put(k, number(v));
                    }
                });
                root.put("stats", counters);
                List<Map<String, Object>> top = new ArrayList<>();
                for (TranslatorStats.BlockCount b : stats.top()) {
                    top.add(Map.of("block", b.block(), "count", b.count()));
                }
                root.put("top", top);
                root.put("filter", filterJson(filter));
                out.println(JsonOutput.line(root));
            } else {
                out.printf(
                        "%s:%s  block size %d, window %d, %d reads and %d writes in this window%n",
                        where.volume,
                        where.file,
                        stats.blockSize(),
                        stats.epoch() + 1,
                        stats.windowReads(),
                        stats.number("window_writes"));
                out.printf("hottest blocks now (block:count): %s%n", stats.get("top"));
                out.printf(
                        "filter of window %d: %d blocks, %d bits, %d hashes, expected false positives %.4f%n",
                        filter.epoch(),
                        filter.inserted(),
                        filter.bits(),
                        filter.hashCount(),
                        filter.expectedFalsePositiveRate());
                out.printf(
                        "since tracking began: %d reads (%d bytes), %d writes (%d bytes)%n",
                        stats.reads(), stats.number("read_bytes"), stats.number("writes"), stats.number("write_bytes"));
            }
        }
        return 0;
    }

    static Map<String, Object> filterJson(HotBlockFilter f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epoch", f.epoch());
        m.put("blocks", f.inserted());
        m.put("bits", f.bits());
        m.put("hashes", f.hashCount());
        m.put("blockSize", f.blockSize());
        m.put("expectedFalsePositiveRate", f.expectedFalsePositiveRate());
        return m;
    }

    private static Object number(String v) {
        try {
            return Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException notDouble) {
                return v;
            }
        }
    }
}
