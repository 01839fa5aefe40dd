package io.locus.cassandra.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Where a key sample comes from (a picocli mixin of {@code plan} and {@code evaluate}): a file listing, the partition
 * keys of a table of another cluster, or a synthetic directory tree. Exactly one.
 */
final class SampleSource {
    /** Synthetic trees larger than this are refused (the sample is held in memory). */
    static final long MAX_SYNTHETIC_KEYS = 5_000_000;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Choice choice;

    @Option(
            names = "--contact",
            paramLabel = "HOST:PORT",
            description = "With --from-table: a node of the cluster that holds the table.")
    String contact;

    @Option(
            names = "--datacenter",
            defaultValue = "datacenter1",
            description = "With --from-table: the driver's local data center (default: ${DEFAULT-VALUE}).")
    String datacenter;

    @Option(names = "--limit", paramLabel = "N", description = "With --from-table: read at most N keys (default: all).")
    Long limit;

    @Option(
            names = "--depth",
            paramLabel = "D",
            description = "With --fanout: directory levels below / (default: ${DEFAULT-VALUE}).",
            defaultValue = "4")
    int depth;

    @Option(
            names = "--files",
            paramLabel = "F",
            description = "With --fanout: files in every directory (default: the fanout).")
    Integer files;

    static final class Choice {
        @Option(
                names = "--keys",
                paramLabel = "FILE",
                description = "Key sample, one key per line (.gz ok; - reads stdin): e.g. `find /data`, "
                        + "`hdfs dfs -ls -R /`, an object-store listing.")
        Path keys;

        @Option(
                names = "--from-table",
                paramLabel = "KS.TABLE",
                description = "Read the partition keys of a table through the driver (e.g. from an existing cluster "
                        + "that uses any partitioner); needs --contact.")
        String fromTable;

        @Option(
                names = "--fanout",
                paramLabel = "F",
                description = "Synthetic namespace: every directory has F subdirectories (down to --depth) and "
                        + "--files files.")
        Integer fanout;
    }

    /** A short description of the source, for output headers. */
    String describe() {
        if (choice.keys != null) {
            return choice.keys.toString();
        }
        if (choice.fromTable != null) {
            return "table " + choice.fromTable + " at " + contact;
        }
        return "synthetic tree, fanout " + choice.fanout + ", depth " + depth + ", " + files() + " files per directory";
    }

    private int files() {
        return files != null ? files : choice.fanout;
    }

    /** Reads the keys. */
    List<String> load(CommandSpec spec) throws IOException {
        if (choice == null) {
            throw new ParameterException(
                    spec.commandLine(),
                    "Missing the key sample: one of --keys FILE, --from-table KS.TABLE, --fanout F");
        }
        if (choice.keys != null) {
            return choice.keys.toString().equals("-") ? KeyFile.read(System.in) : KeyFile.read(choice.keys);
        }
        if (choice.fromTable != null) {
            if (contact == null) {
                throw new ParameterException(spec.commandLine(), "--from-table needs --contact HOST:PORT");
            }
            if (limit != null && limit < 1) {
                throw new ParameterException(spec.commandLine(), "--limit " + limit + " (expected: >= 1)");
            }
            return fromTable(spec);
        }
        if (choice.fanout < 1 || depth < 0 || files() < 0) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--fanout " + choice.fanout + " --depth " + depth + " --files " + files()
                            + " (expected: fanout >= 1, depth >= 0, files >= 0)");
        }
        try {
            return SyntheticTree.paths(choice.fanout, depth, files(), MAX_SYNTHETIC_KEYS);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private List<String> fromTable(CommandSpec spec) {
        int dot = choice.fromTable.indexOf('.');
        if (dot <= 0 || dot == choice.fromTable.length() - 1) {
            throw new ParameterException(
                    spec.commandLine(), "--from-table " + choice.fromTable + " (expected: KEYSPACE.TABLE)");
        }
        String ks = choice.fromTable.substring(0, dot);
        String table = choice.fromTable.substring(dot + 1);
        InetSocketAddress address = Contact.parse(spec, "--contact", contact);
        List<String> keys = new ArrayList<>();
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(address)
                .withLocalDatacenter(datacenter)
                .build()) {
            TableMetadata t = session.getMetadata()
                    .getKeyspace(ks)
                    .flatMap(k -> k.getTable(table))
                    .orElseThrow(() -> new IllegalArgumentException(
                            "table " + choice.fromTable + " does not exist on " + contact));
            if (t.getPartitionKey().size() != 1) {
                throw new IllegalArgumentException("table " + choice.fromTable + " has a partition key of "
                        + t.getPartitionKey().size() + " columns (expected: one text column holding the path)");
            }
            DataType type = t.getPartitionKey().get(0).getType();
            if (!type.equals(DataTypes.TEXT) && !type.equals(DataTypes.ASCII)) {
                throw new IllegalArgumentException("table " + choice.fromTable + " has a partition key of type "
                        + type.asCql(false, true) + " (expected: text holding the path)");
            }
            String pk = t.getPartitionKey().get(0).getName().asCql(true);
            String q = "SELECT DISTINCT " + pk + " FROM " + t.getKeyspace().asCql(true) + "."
                    + t.getName().asCql(true);
            for (Row r : session.execute(SimpleStatement.newInstance(q).setPageSize(5000))) {
                keys.add(r.getString(0));
                if (limit != null && keys.size() >= limit) {
                    break;
                }
            }
        }
        return keys;
    }
}
