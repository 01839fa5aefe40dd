package io.locus.cassandra.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * Copies one table of a Murmur3 cluster into a table of the same schema on another cluster (a DROP one), slice by
 * slice of the source's token ring, and checks the result. Rows are read in pages and written with up to
 * {@code concurrency} asynchronous inserts in flight; values travel as the bytes the source returned, so every column
 * type copies unchanged. Nulls are left unset rather than written, so the copy writes no tombstones.
 *
 * <p>What it does not keep: write times and TTLs (every copied cell gets the copy's write time and no TTL), and rows
 * written to the source while the copy runs may be missed (stop writers, or copy again: copying is idempotent).
 */
public final class TableCopy {
    static final String MURMUR3 = "org.apache.cassandra.dht.Murmur3Partitioner";

    /** One side of a copy: a session, the table, and how to name the cluster in messages. */
    public record Side(CqlSession session, String keyspace, String table, String where) {
        String qualified() {
            return keyspace + "." + table;
        }

        String describe() {
            return where + " " + qualified();
        }
    }

    /** What one run did: slices copied now and before, rows written now. */
    public record Progress(int splitsCopied, int splitsDoneBefore, int splitsLeft, long rowsWritten) {}

    private final Side from;
    private final Side to;
    private final List<String> columns;
    private final String tokenOf;
    private final int pageSize;
    private final int concurrency;
    private final ConsistencyLevel consistency;

    private TableCopy(
            Side from,
            Side to,
            List<String> columns,
            String tokenOf,
            int pageSize,
            int concurrency,
            ConsistencyLevel cl) {
        this.from = from;
        this.to = to;
        this.columns = columns;
        this.tokenOf = tokenOf;
        this.pageSize = pageSize;
        this.concurrency = concurrency;
        this.consistency = cl;
    }

    /**
     * Checks both sides and returns the copy.
     *
     * @throws IllegalArgumentException if the source is not a Murmur3 cluster, a table is missing, the schemas differ
     *     or the table holds counters (each message names the table and what differs)
     */
    public static TableCopy between(Side from, Side to, int pageSize, int concurrency, ConsistencyLevel consistency) {
        if (pageSize < 1 || concurrency < 1) {
            throw new IllegalArgumentException(
                    "page size " + pageSize + " and concurrency " + concurrency + " (expected: at least 1 each)");
        }
        String partitioner = from.session()
                .getMetadata()
                .getTokenMap()
                .map(m -> m.getPartitionerName())
                .orElse("unknown (the driver has no token map)");
        if (!MURMUR3.equals(partitioner)) {
            throw new IllegalArgumentException("source " + from.where() + " runs " + partitioner + " (expected: "
                    + MURMUR3 + "; copy reads a Murmur3 cluster by slices of its token ring)");
        }
        TableMetadata source = table(from, null);
        TableMetadata target = table(to, source);
        if (source.getColumns().values().stream().anyMatch(c -> c.getType().equals(DataTypes.COUNTER))) {
            throw new IllegalArgumentException(
                    "source " + from.describe()
                            + " has counter columns; counters cannot be copied with INSERT (expected: a table without counters)");
        }
        String diff = differences(source, target);
        if (!diff.isEmpty()) {
            throw new IllegalArgumentException("target " + to.describe() + " does not match the source "
                    + from.describe()
                    + ": " + diff + " (expected the same columns, types and primary key; the source's definition: "
                    + source.describeWithChildren(false) + ")");
        }
        List<String> columns =
                source.getColumns().keySet().stream().map(id -> id.asCql(true)).collect(Collectors.toList());
        String tokenOf = "token("
                + source.getPartitionKey().stream()
                        .map(c -> c.getName().asCql(true))
                        .collect(Collectors.joining(", "))
                + ")";
        return new TableCopy(from, to, columns, tokenOf, pageSize, concurrency, consistency);
    }

    private static TableMetadata table(Side side, TableMetadata source) {
        return side.session()
                .getMetadata()
                .getKeyspace(side.keyspace())
                .flatMap(k -> k.getTable(side.table()))
                .orElseThrow(() -> new IllegalArgumentException("table " + side.qualified() + " does not exist on "
                        + side.where()
                        + (source == null
                                ? ""
                                : " (create it first, e.g. with the source's definition: "
                                        + source.describeWithChildren(false) + ")")));
    }

    /** What differs between two tables' columns and primary keys, or "" if nothing does. */
    static String differences(TableMetadata a, TableMetadata b) {
        List<String> diffs = new ArrayList<>();
        Map<String, String> ca = types(a.getColumns().values());
        Map<String, String> cb = types(b.getColumns().values());
        for (Map.Entry<String, String> e : ca.entrySet()) {
            String other = cb.get(e.getKey());
            if (other == null) {
                diffs.add("column " + e.getKey() + " is missing");
            } else if (!other.equals(e.getValue())) {
                diffs.add("column " + e.getKey() + " is " + other + ", the source's is " + e.getValue());
            }
        }
        for (String extra : cb.keySet()) {
            if (!ca.containsKey(extra)) {
                diffs.add("column " + extra + " is not in the source");
            }
        }
        if (!names(a.getPrimaryKey()).equals(names(b.getPrimaryKey()))
                || a.getPartitionKey().size() != b.getPartitionKey().size()) {
            diffs.add("primary key is " + keyText(b) + ", the source's is " + keyText(a));
        }
        return String.join("; ", diffs);
    }

    private static Map<String, String> types(Iterable<ColumnMetadata> columns) {
        Map<String, String> m = new LinkedHashMap<>();
        for (ColumnMetadata c : columns) {
            m.put(c.getName().asCql(true), c.getType().asCql(true, true) + (c.isStatic() ? " static" : ""));
        }
        return m;
    }

    private static List<String> names(List<ColumnMetadata> columns) {
        return columns.stream().map(c -> c.getName().asCql(true)).collect(Collectors.toList());
    }

    private static String keyText(TableMetadata t) {
        return "((" + String.join(", ", names(t.getPartitionKey())) + ")"
                + (t.getClusteringColumns().isEmpty()
                        ? ""
                        : ", "
                                + String.join(
                                        ", ",
                                        names(new ArrayList<>(
                                                t.getClusteringColumns().keySet()))))
                + ")";
    }

    /**
     * Copies every slice the checkpoint does not have yet, at most {@code maxSplits} of them, recording each when all
     * its writes were acknowledged.
     *
     * @param onSplit called with the slice's index after it is recorded (a progress bar)
     * @throws IllegalStateException if a read or write fails: the message names the slice; slices recorded before it
     *     stay recorded, and a new run resumes with it
     */
    public Progress copy(CopyCheckpoint checkpoint, int maxSplits, IntConsumer onSplit) {
        PreparedStatement read = from.session()
                .prepare(SimpleStatement.newInstance("SELECT " + String.join(", ", columns) + " FROM "
                                + from.qualified() + " WHERE " + tokenOf + " > ? AND " + tokenOf + " <= ?")
                        .setConsistencyLevel(consistency)
                        .setPageSize(pageSize));
        PreparedStatement insert = to.session()
                .prepare(SimpleStatement.newInstance("INSERT INTO " + to.qualified() + " (" + String.join(", ", columns)
                                + ") VALUES ("
                                + String.join(
                                        ", ", columns.stream().map(c -> "?").toList()) + ")")
                        .setConsistencyLevel(consistency));
        int before = checkpoint.doneCount();
        int copied = 0;
        long rows = 0;
        for (Murmur3Splits.Split split : Murmur3Splits.of(checkpoint.splits())) {
            if (checkpoint.isDone(split.index())) {
                continue;
            }
            if (copied == maxSplits) {
                break;
            }
            rows += copySplit(read, insert, split);
            checkpoint.markDone(split.index());
            copied++;
            onSplit.accept(split.index());
        }
        return new Progress(copied, before, checkpoint.splits() - checkpoint.doneCount(), rows);
    }

    private long copySplit(PreparedStatement read, PreparedStatement insert, Murmur3Splits.Split split) {
        Semaphore inFlight = new Semaphore(concurrency);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        long rows = 0;
        try {
            for (Row row : from.session().execute(read.bind(split.start(), split.end()))) {
                if (failed.get() != null) {
                    break;
                }
                BoundStatementBuilder b = insert.boundStatementBuilder();
                for (int i = 0; i < columns.size(); i++) {
                    ByteBuffer v = row.getBytesUnsafe(i);
                    if (v == null) {
                        b = b.unset(i);
                    } else {
                        b = b.setBytesUnsafe(i, v);
                    }
                }
                inFlight.acquireUninterruptibly();
                to.session().executeAsync(b.build()).whenComplete((rs, e) -> {
                    if (e != null) {
                        failed.compareAndSet(null, e);
                    }
                    inFlight.release();
                });
                rows++;
            }
        } catch (RuntimeException e) {
            inFlight.acquireUninterruptibly(concurrency);
            throw new IllegalStateException(failure("reading from " + from.describe(), split, e), e);
        }
        inFlight.acquireUninterruptibly(concurrency);
        Throwable e = failed.get();
        if (e != null) {
            throw new IllegalStateException(failure("writing to " + to.describe(), split, e), e);
        }
        return rows;
    }

    private static String failure(String what, Murmur3Splits.Split split, Throwable e) {
        return what + " failed in slice " + split.index() + " (tokens " + split.start() + " to " + split.end() + "): "
                + e.getMessage()
                + "; the slices finished before it are in the checkpoint, run the copy again to resume";
    }

    /** The source's and the target's row count and digest. */
    public record Comparison(RowDigest source, RowDigest target) {
        public boolean same() {
            return source.sameAs(target);
        }
    }

    /** Reads both tables whole (two full scans) and compares them. */
    public Comparison verify() {
        return new Comparison(digest(from), digest(to));
    }

    private RowDigest digest(Side side) {
        RowDigest d = new RowDigest();
        SimpleStatement all = SimpleStatement.newInstance(
                        "SELECT " + String.join(", ", columns) + " FROM " + side.qualified())
                .setConsistencyLevel(consistency)
                .setPageSize(pageSize);
        ByteBuffer[] values = new ByteBuffer[columns.size()];
        for (Row row : side.session().execute(all)) {
            for (int i = 0; i < values.length; i++) {
                values[i] = row.getBytesUnsafe(i);
            }
            d.add(values);
        }
        return d;
    }
}
