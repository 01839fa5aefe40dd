package io.locus.memcached.cache;

/** An intrusive doubly linked list in LRU order: head = least recently used, tail = most recently used. */
final class LruQueue {
    private Entry head;
    private Entry tail;

    /** The least recently used entry, or null if the queue is empty. */
    Entry head() {
        return head;
    }

    void addTail(Entry e) {
        e.linkAfter(tail);
        if (tail == null) {
            head = e;
        }
        tail = e;
    }

    void unlink(Entry e) {
        if (e.prev() == null) {
            head = e.next();
        }
        if (e.next() == null) {
            tail = e.prev();
        }
        e.unlinkFromNeighbours();
    }

    void clear() {
        head = null;
        tail = null;
    }
}
