package io.locus.memcached.deadline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A connection's batches take at most {@link ConnectionShares#SHARE} tickets per backend, in arrival order. */
class ConnectionSharesTest {
    private final List<String> offered = new ArrayList<>();

    private class Work implements ConnectionShares.Member {
        private final String name;
        private final long connection;
        private final int backend;
        private boolean wanted = true;

        Work(String name, long connection, int backend) {
            this.name = name;
            this.connection = connection;
            this.backend = backend;
        }

        @Override
        public long connectionId() {
            return connection;
        }

        @Override
        public int backend() {
            return backend;
        }

        @Override
        public boolean wanted() {
            return wanted;
        }

        @Override
        public void offer() {
            offered.add(name);
        }
    }

    @Test
    void aConnectionsBacklog_waitsOutsideTheScheduler_otherConnectionsAndBackendsDoNot() {
        ConnectionShares shares = new ConnectionShares(2, new ConnectionOrder(2));
        List<Work> a = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.add(new Work("a" + i, 1, 0));
            shares.submit(a.get(i));
        }
        shares.submit(new Work("a-other-backend", 1, 1));
        shares.submit(new Work("b0", 2, 0));
        assertEquals(List.of("a0", "a1", "a-other-backend", "b0"), offered);
        a.get(3).wanted = false; // its request was answered meanwhile
        shares.released(a.get(0));
        assertEquals("a2", offered.get(4));
        shares.released(a.get(1));
        assertEquals(List.of("a0", "a1", "a-other-backend", "b0", "a2", "a4"), offered, "a3 is skipped");
        shares.released(a.get(2));
        shares.released(a.get(4));
        assertEquals(2, shares.size(), "connection 1 at backend 1 and connection 2 at backend 0 still hold tickets");
    }

    @Test
    void aBatchRefusedAtOnce_letsTheNextTakeItsPlace() {
        ConnectionShares shares = new ConnectionShares(1, new ConnectionOrder(1));
        List<Work> refused = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Work w = new Work("r" + i, 7, 0) {
                @Override
                public void offer() {
                    super.offer();
                    shares.released(this); // admission refused it inside the offer
                }
            };
            refused.add(w);
        }
        for (Work w : refused) {
            shares.submit(w);
        }
        assertEquals(List.of("r0", "r1", "r2", "r3"), offered);
        assertEquals(0, shares.size());
    }
}
