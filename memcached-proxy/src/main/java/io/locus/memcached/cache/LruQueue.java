package io.locus.memcached.cache;

/** An intrusive doubly linked list in LRU order: head = least recently used, tail = most recently used. */
final class LruQueue {
    Entry head;
    Entry tail;
    int size;

    void addTail(Entry e) {
        e.prev = tail;
        e.next = null;
        if (tail == null) {
            head = e;
        } else {
            tail.next = e;
        }
        tail = e;
        size++;
    }

    void unlink(Entry e) {
        if (e.prev == null) {
            head = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            tail = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
        size--;
    }

    void clear() {
        head = null;
        tail = null;
        size = 0;
    }
}
