package io.locus.hdfs.cast.io;

import io.locus.hdfs.cast.model.Cluster;
import io.locus.hdfs.cast.model.Job;
import io.locus.hdfs.cast.model.JobProfile;
import io.locus.hdfs.cast.model.TierCatalog;
import io.locus.hdfs.cast.model.Workload;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a SWIM trace (Facebook 2009 or 2010, as published by the SWIM project) into a workload.
 *
 * <p>A trace line is: job id, submit time (s), gap to the previous job (s), map input bytes, shuffle bytes, reduce
 * output bytes, and in the FB-2010 traces the input path. Sizes become the job's input, intermediate and output;
 * map tasks are the input in splits (at least one); application types go round robin over Sort, Join, Grep, KMeans,
 * as in the dissertation's synthesized workload (the traces carry none). Jobs that read an input path some other job
 * reads too share it as a dataset: a CAST++ reuse group.
 */
public final class SwimTraces {
    private SwimTraces() {}

    private static final List<JobProfile> APPS =
            List.of(JobProfile.SORT, JobProfile.JOIN, JobProfile.GREP, JobProfile.KMEANS);

    /** Reads the first {@code limit} jobs of {@code trace} (all with {@code limit} ≤ 0). */
    public static Workload read(Path trace, Cluster c, TierCatalog tiers, int limit) {
        String file = trace.toString();
        List<String[]> rows = new ArrayList<>();
        Map<String, Integer> readers = new HashMap<>();
        try (BufferedReader r = Files.newBufferedReader(trace, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = r.readLine()) != null && (limit <= 0 || rows.size() < limit)) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                if (f.length < 6) {
                    throw new InputException(
                            file,
                            "line " + lineNo,
                            line,
                            "at least 6 tab-separated columns (id, submit s, gap s, "
                                    + "map input bytes, shuffle bytes, reduce output bytes[, input path])");
                }
                for (int k = 3; k < 6; k++) {
                    if (!f[k].matches("[0-9]+")) {
                        throw new InputException(file, "line " + lineNo + " column " + (k + 1), f[k], "a byte count");
                    }
                }
                rows.add(f);
                if (f.length > 6 && !f[6].isBlank()) {
                    readers.merge(f[6], 1, Integer::sum);
                }
            }
        } catch (IOException e) {
            throw new InputException(file, "cannot be read: " + e, e);
        }
        if (rows.isEmpty()) {
            throw new InputException(file, "", "an empty file", "at least one job line");
        }
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String[] f = rows.get(i);
            double input = gb(f[3]);
            int maps = (int) Math.max(1, Math.ceil(input * 1024 / c.splitMb()));
            String path = f.length > 6 && !f[6].isBlank() ? f[6] : null;
            String dataset = path != null && readers.get(path) > 1 ? path : null;
            jobs.add(new Job(
                    f[0], APPS.get(i % APPS.size()), input, gb(f[4]), gb(f[5]), maps, c.defaultReduces(maps), dataset));
        }
        String name = trace.getFileName().toString().replaceFirst("\\.tsv$", "");
        return new Workload(name, c, tiers, jobs, List.of());
    }

    private static double gb(String bytes) {
        return Long.parseLong(bytes) / (1024.0 * 1024 * 1024);
    }
}
