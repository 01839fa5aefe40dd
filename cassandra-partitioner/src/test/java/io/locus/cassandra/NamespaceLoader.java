package io.locus.cassandra;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;

/** Writes path keys into a table {@code (path text PRIMARY KEY, depth int)} with bounded concurrency. */
final class NamespaceLoader {
    private NamespaceLoader() {
    }

    static void load(CqlSession session, String table, List<String> paths) throws InterruptedException {
        PreparedStatement insert = session.prepare("INSERT INTO " + table + " (path, depth) VALUES (?, ?)");
        Semaphore inFlight = new Semaphore(128);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // Retries block, and the driver fails any blocking call made on its own I/O threads ("Detected a synchronous
        // API call on a driver thread"), so completions are handled on this pool instead.
        ExecutorService callbacks = Executors.newFixedThreadPool(4);
        try {
            load(session, insert, paths, inFlight, failure, callbacks);
        } finally {
            callbacks.shutdown();
        }
    }

    private static void load(CqlSession session, PreparedStatement insert, List<String> paths, Semaphore inFlight,
                             AtomicReference<Throwable> failure, ExecutorService callbacks) throws InterruptedException {
        for (String p : paths) {
            inFlight.acquire();
            var stmt = insert.bind(p, (int) p.chars().filter(c -> c == '/').count()).setIdempotent(true);
            CompletionStage<?> f = session.executeAsync(stmt);
            f.whenCompleteAsync((r, e) -> {
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
                inFlight.release();
            }, callbacks);
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
