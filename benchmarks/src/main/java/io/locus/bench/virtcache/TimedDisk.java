package io.locus.bench.virtcache;

import io.locus.gluster.virtcache.replay.Replayer;
import java.io.IOException;
import java.util.function.LongConsumer;

/**
 * A disk that passes the time of each call, in microseconds from its start, to a consumer: what a request took once
 * it began, apart from its wait behind the requests before it that an open-loop latency includes.
 */
record TimedDisk(Replayer.Disk disk, LongConsumer callMicros) implements Replayer.Disk {

    @Override
    public byte[] read(long offset, int length) throws IOException {
        long t = System.nanoTime();
        try {
            return disk.read(offset, length);
        } finally {
            callMicros.accept(Math.max(1, (System.nanoTime() - t) / 1000));
        }
    }

    @Override
    public void write(long offset, byte[] data) throws IOException {
        long t = System.nanoTime();
        try {
            disk.write(offset, data);
        } finally {
            callMicros.accept(Math.max(1, (System.nanoTime() - t) / 1000));
        }
    }
}
