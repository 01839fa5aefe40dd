package io.locus.gluster.virtcache.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The CloudPhysics block trace format: CSV with the header {@code version,time,op,size,lbn}; time in seconds, op
 * {@code 28} (SCSI READ(10)) or {@code 2a} (WRITE(10)), size in bytes, lbn the 512-byte logical block number.
 */
public final class CloudPhysicsTrace {
    static final String HEADER = "version,time,op,size,lbn";
    static final int SECTOR = 512;

    private CloudPhysicsTrace() {}

    /**
     * Reads up to {@code limit} requests of {@code file}, folding offsets into a disk of {@code diskBytes} (offset mod
     * diskBytes, kept sector-aligned, and a request never runs past the end).
     *
     * @throws IllegalArgumentException for a malformed line: the file, line number, field and value are named
     */
    public static List<TraceRequest> read(Path file, long limit, long diskBytes) throws IOException {
        if (diskBytes < SECTOR || diskBytes % SECTOR != 0) {
            throw new IllegalArgumentException("disk size " + diskBytes + " (expected: a positive multiple of 512)");
        }
        List<TraceRequest> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
            String header = r.readLine();
            if (!HEADER.equals(header)) {
                throw new IllegalArgumentException(
                        file + " line 1: header \"" + header + "\" (expected: " + HEADER + ")");
            }
            long lineNo = 1;
            String line;
            while (out.size() < limit && (line = r.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                out.add(parse(file, lineNo, line, diskBytes));
            }
        }
        return out;
    }

    static TraceRequest parse(Path file, long lineNo, String line, long diskBytes) {
        String[] f = line.split(",", -1);
        String where = file + " line " + lineNo;
        if (f.length != 5) {
            throw new IllegalArgumentException(
                    where + ": " + f.length + " fields in \"" + line + "\" (expected: 5, " + HEADER + ")");
        }
        boolean write;
        switch (f[2]) {
            case "28" -> write = false;
            case "2a" -> write = true;
            default ->
                throw new IllegalArgumentException(
                        where + ": op \"" + f[2] + "\" (expected: 28 for a read or 2a for a write)");
        }
        long time = number(where, "time", f[1]);
        long size = number(where, "size", f[3]);
        long lbn = number(where, "lbn", f[4]);
        if (size <= 0 || size > diskBytes || size > (1 << 24)) {
            throw new IllegalArgumentException(
                    where + ": size " + size + " (expected: 1.." + Math.min(diskBytes, 1 << 24) + " bytes)");
        }
        long offset = Math.floorMod(lbn * SECTOR, diskBytes);
        if (offset + size > diskBytes) {
            offset = (diskBytes - size) / SECTOR * SECTOR;
        }
        return new TraceRequest(lineNo, write, offset, (int) size, time);
    }

    private static long number(String where, String field, String value) {
        try {
            long v = Long.parseLong(value);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    where + ": " + field + " \"" + value + "\" (expected: a non-negative integer)");
        }
    }
}
