package io.locus.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Writes path keys into a table {@code (path text PRIMARY KEY, depth int)} with bounded concurrency. */
public final class NamespaceLoader {
    private NamespaceLoader() {}

    public static void load(CqlSession session, String table, List<String> paths) throws InterruptedException {
        load(session, table, paths, () -> {});
    }

    /** As {@link #load(CqlSession, String, List)}, calling {@code onWritten} after each row is written (from driver threads). */
    public static void load(CqlSession session, String table, List<String> paths, Runnable onWritten)
            throws InterruptedException {
        PreparedStatement insert = session.prepare("INSERT INTO " + table + " (path, depth) VALUES (?, ?)");
        Semaphore inFlight = new Semaphore(128);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (String p : paths) {
            inFlight.acquire();
            var stmt = insert.bind(p, (int) p.chars().filter(c -> c == '/').count())
                    .setIdempotent(true);
            write(
                    session,
                    stmt,
                    1,
                    () -> {
                        onWritten.run();
                        inFlight.release();
                    },
                    e -> {
                        failure.compareAndSet(null, e);
                        inFlight.release();
                    });
            if (failure.get() != null) {
                break;
            }
        }
        if (!inFlight.tryAcquire(128, 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("inserts did not finish within 120 s");
        }
        inFlight.release(128);
        if (failure.get() != null) {
            throw new IllegalStateException("insert failed", failure.get());
        }
    }

    /**
     * A loaded 2-core host can miss the node's 2 s write timeout; the insert is idempotent, so it is sent again (up to
     * 6 times). Retries are asynchronous: the driver forbids blocking calls on its own threads.
     */
    private static void write(
            CqlSession session,
            Statement<?> stmt,
            int attempt,
            Runnable done,
            java.util.function.Consumer<Throwable> failed) {
        session.executeAsync(stmt).whenComplete((r, e) -> {
            if (e == null) {
                done.run();
            } else if (attempt < 6) {
                write(session, stmt, attempt + 1, done, failed);
            } else {
                failed.accept(e);
            }
        });
    }
}
