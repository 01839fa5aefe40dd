package io.locus.gluster.virtcache.client;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/** In-memory stores whose unflushed writes a simulated crash loses. */
final class MemoryStores {
    private MemoryStores() {}

    static final class Disk implements BlockStore {
        private byte[] durable = new byte[0];
        private byte[] current = new byte[0];
        int flushes;
        int reads;
        int writes;

        @Override
        public synchronized byte[] read(long offset, int length) {
            reads++;
            if (offset >= current.length) {
                return new byte[0];
            }
            return Arrays.copyOfRange(current, (int) offset, (int) Math.min(current.length, offset + length));
        }

        @Override
        public synchronized void write(long offset, byte[] data) {
            writes++;
            int end = (int) offset + data.length;
            if (end > current.length) {
                current = Arrays.copyOf(current, end);
            }
            System.arraycopy(data, 0, current, (int) offset, data.length);
        }

        @Override
        public synchronized void flush() {
            durable = current.clone();
            flushes++;
        }

        /** The process died: what was not flushed is gone. */
        synchronized void crash() {
            current = durable.clone();
        }

        synchronized byte[] contents() {
            return current.clone();
        }
    }

    static final class Log implements Journal {
        private final ByteArrayOutputStream all = new ByteArrayOutputStream();
        private int durableLength;
        int syncs;
        int replacements;

        @Override
        public synchronized void append(byte[] record) {
            all.writeBytes(record);
        }

        @Override
        public synchronized void sync() {
            durableLength = all.size();
            syncs++;
        }

        @Override
        public synchronized byte[] readAll() {
            return all.toByteArray();
        }

        @Override
        public synchronized void replace(byte[] contents) {
            all.reset();
            all.writeBytes(contents);
            durableLength = contents.length;
            replacements++;
        }

        /** The process died mid-append: unsynced records are lost but for {@code tornBytes} of the first one. */
        synchronized void crash(int tornBytes) {
            byte[] bytes = all.toByteArray();
            int keep = Math.min(bytes.length, durableLength + tornBytes);
            all.reset();
            all.write(bytes, 0, keep);
            durableLength = keep;
        }

        synchronized int size() {
            return all.size();
        }
    }
}
