package io.locus.cassandra;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/** Writes path keys into a table {@code (path text PRIMARY KEY, depth int)} with bounded concurrency. */
public final class NamespaceLoader {
    private NamespaceLoader() {
    }

    public static void load(CqlSession session, String table, List<String> paths) throws InterruptedException {
        load(session, table, paths, () -> { });
    }

    /** As {@link #load(CqlSession, String, List)}, calling {@code onWritten} after each row is written (from driver threads). */
    public static void load(CqlSession session, String table, List<String> paths, Runnable onWritten)
            throws InterruptedException {
        PreparedStatement insert = session.prepare("INSERT INTO " + table + " (path, depth) VALUES (?, ?)");
        Semaphore inFlight = new Semaphore(128);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (String p : paths) {
            inFlight.acquire();
            var stmt = insert.bind(p, (int) p.chars().filter(c -> c == '/').count()).setIdempotent(true);
            CompletionStage<?> f = session.executeAsync(stmt);
            f.whenComplete((r, e) -> {
                if (e != null) {
                    // A loaded 2-core host can miss the node's 2 s write timeout; the insert is idempotent: retry.
                    for (int attempt = 0; attempt < 5; attempt++) {
                        try {
                            session.execute(stmt);
                            e = null;
                            break;
                        } catch (RuntimeException again) {
                            e = again;
                        }
                    }
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    }
                }
                if (e == null) {
                    onWritten.run();
                }
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
}
