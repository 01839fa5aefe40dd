package io.locus.hdfs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the NameNode's copy of the plan current: a daemon thread looks at the plan file's modification time and size
 * every period and re-reads it when either changed, so the placement path only reads a volatile field. The file is
 * local ({@code /etc/hadoop/plan.json}, {@code file:/...}) or on a Hadoop file system ({@code hdfs://nn:8020/...},
 * {@code hdfs:///...} for the NameNode's own default file system), read through that file system's client. A plan that
 * cannot be read or does not validate is logged once per distinct problem and leaves every path on the default
 * placement until the file changes.
 */
final class PlanWatch implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PlanWatch.class);

    /** Where the plan file lives. */
    interface Source extends AutoCloseable {
        /** Something that changes when the file changes (modification time and size); null while it is being written. */
        Object version() throws IOException;

        String read() throws IOException;

        @Override
        void close();
    }

    private final Source source;
    private final String name;
    private final String root;
    private volatile PlacementMap map = PlacementMap.EMPTY;
    private final ScheduledExecutorService poller;
    private final CastPlacementMetrics metrics;
    private Object loadedVersion;
    private String lastError;
    private int errors;

    PlanWatch(String location, Configuration conf, String root, long periodMillis, CastPlacementMetrics metrics) {
        this.metrics = metrics;
        this.source = source(location, conf);
        this.name = location;
        this.root = root;
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "locus-cast-plan-watch");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, periodMillis);
        if (source instanceof LocalFile) {
            reload(); // placed by the plan from the first block on
            poller.scheduleWithFixedDelay(task(this, poller), period, period, TimeUnit.MILLISECONDS);
        } else {
            // A plan on the NameNode's own file system cannot be read before the NameNode serves RPCs, which is
            // after the placement policy is initialized: the first read is on the poller.
            poller.scheduleWithFixedDelay(task(this, poller), 0, period, TimeUnit.MILLISECONDS);
        }
    }

    static Source source(String location, Configuration conf) {
        Path p = new Path(location);
        String scheme = p.toUri().getScheme();
        if (scheme == null || scheme.equals("file")) {
            return new LocalFile(java.nio.file.Paths.get(p.toUri().getPath()));
        }
        return new HadoopFile(p, conf);
    }

    PlacementMap map() {
        return map;
    }

    /** Re-reads the plan now; false (and the problem logged) when it is missing or does not validate. */
    synchronized boolean reload() {
        loadedVersion = versionOrProblem();
        try {
            map = PlacementMap.parse(source.read(), root);
            lastError = null;
            metrics.planLoaded(map.plannedJobs());
            LOG.info(
                    "{} {}: {} planned jobs under {}",
                    CastBlockPlacementPolicy.PLAN_PATH_KEY,
                    name,
                    map.plannedJobs(),
                    root);
            return true;
        } catch (IOException | RuntimeException e) {
            map = PlacementMap.EMPTY;
            String msg = firstLine(e.getMessage());
            boolean newProblem = !msg.equals(lastError);
            metrics.planFailed(newProblem);
            if (newProblem) {
                lastError = msg;
                errors++;
                LOG.error(
                        "{} {}: {}; every block is placed by the default policy until the plan is fixed",
                        CastBlockPlacementPolicy.PLAN_PATH_KEY,
                        name,
                        msg);
            }
            return false;
        }
    }

    /** How many distinct problems the plan had (each logged once). */
    synchronized int errors() {
        return errors;
    }

    /** The file's version, or the kind of problem reaching it (so one missing file is not re-read every period). */
    private Object versionOrProblem() {
        try {
            return source.version();
        } catch (IOException | RuntimeException e) {
            return e.getClass().getName();
        }
    }

    synchronized void check() {
        Object v = versionOrProblem();
        if (v == null || (loadedVersion != null && Objects.equals(v, loadedVersion))) {
            return;
        }
        reload();
    }

    /**
     * The poll, holding the watch only weakly: a policy Hadoop drops without a word (the NameNode builds one for
     * {@code -format}, MiniDFSCluster one per start) stops its poller once it is collected.
     */
    private static Runnable task(PlanWatch watch, ScheduledExecutorService poller) {
        WeakReference<PlanWatch> ref = new WeakReference<>(watch);
        return () -> {
            PlanWatch w = ref.get();
            if (w == null) {
                poller.shutdown();
            } else {
                w.checkQuietly();
            }
        };
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) {
            LOG.warn("plan watch: {}", e.toString());
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
        source.close();
    }

    /** The first line of an exception's message, "" for none: the rest is a stack of causes the log has anyway. */
    static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int end = message.indexOf('\n');
        return end < 0 ? message : message.substring(0, end);
    }

    private static final class LocalFile implements Source {
        private final java.nio.file.Path file;

        LocalFile(java.nio.file.Path file) {
            this.file = file;
        }

        @Override
        public Object version() throws IOException {
            return Files.getLastModifiedTime(file).toMillis() + "/" + Files.size(file);
        }

        @Override
        public String read() throws IOException {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        }

        @Override
        public void close() {}
    }

    /** A file on a Hadoop file system, opened lazily: the NameNode's default file system resolves once it serves. */
    private static final class HadoopFile implements Source {
        private final Path path;
        private final Configuration conf;
        private FileSystem fs;

        HadoopFile(Path path, Configuration conf) {
            this.path = path;
            this.conf = conf;
        }

        private synchronized FileSystem fs() throws IOException {
            if (fs == null) {
                // Not the cached instance: whoever else shares it in this JVM may close it.
                fs = FileSystem.newInstance(path.toUri(), conf);
            }
            return fs;
        }

        @Override
        public Object version() throws IOException {
            FileSystem f = fs();
            try {
                if (f instanceof DistributedFileSystem && !((DistributedFileSystem) f).isFileClosed(path)) {
                    return null; // still being written: look again next period
                }
                FileStatus s = f.getFileStatus(path);
                return s.getModificationTime() + "/" + s.getLen();
            } catch (java.io.FileNotFoundException e) {
                throw e;
            } catch (IOException | IllegalArgumentException e) {
                // Unreachable, or resolved while the NameNode was still starting (its address then ends in port 0 and
                // every path is a "Wrong FS"): resolve the file system afresh next period.
                close();
                throw e;
            }
        }

        @Override
        public String read() throws IOException {
            try (InputStream in = fs().open(path)) {
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                IOUtils.copyBytes(in, bytes, 64 * 1024, false);
                return new String(bytes.toByteArray(), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                close();
                throw e;
            }
        }

        @Override
        public synchronized void close() {
            if (fs != null) {
                try {
                    fs.close();
                } catch (IOException e) {
                    LOG.debug("closing {}: {}", path, e.toString());
                }
                fs = null;
            }
        }
    }
}
