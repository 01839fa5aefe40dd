package io.locus.gluster.virtcache.interference;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Separate servers emulated on one machine with cgroup v1: each emulated server (a brick process, or a client process
 * such as fio) gets a group of its own in the {@code cpu} and {@code blkio} hierarchies with its own {@link
 * ServerBudget}. A brick's I/O on behalf of all its clients is charged to the brick's group, so a competing workload
 * on one brick uses up that server's disk and CPU budget and leaves the others' alone, as another VM's I/O on the same
 * server would. What is not emulated: the network (all traffic stays on loopback), memory (the page cache is the
 * machine's; only O_DIRECT and synced I/O reach the throttled disk), and the machine's other load, which the quotas
 * cap but do not hold off.
 *
 * <p>Groups are named {@code locus-vc-<jvm pid>-<name>}. {@link #close()} moves what is left in them back to the root
 * group and removes them; it also runs from a shutdown hook, and {@link #create} first removes groups a dead JVM left.
 * Not thread-safe.
 */
public final class EmulatedServers implements AutoCloseable {
    public static final Path CGROUP_ROOT = Path.of("/sys/fs/cgroup");
    static final String PREFIX = "locus-vc-";

    private final Path root;
    private final String device;
    private final String prefix;
    private final Map<String, ServerBudget> groups = new LinkedHashMap<>();
    private final Thread shutdownHook = new Thread(this::closeQuietly, "remove-emulated-servers");
    private boolean closed;

    private EmulatedServers(Path root, String device) {
        this.root = root;
        this.device = device;
        this.prefix = PREFIX + ProcessHandle.current().pid() + "-";
    }

    /**
     * Why servers cannot be emulated here for bricks under {@code brickDirectory}, or empty if they can: cgroup v1's
     * {@code cpu} and {@code blkio} hierarchies must be mounted under {@code root} and writable, and the bricks' file
     * system must sit on a block device.
     */
    public static Optional<String> unusable(Path root, Path brickDirectory) {
        for (String controller : List.of("cpu", "blkio")) {
            Path procs = root.resolve(controller).resolve("cgroup.procs");
            if (!Files.isRegularFile(procs)) {
                return Optional.of("no cgroup v1 " + controller + " hierarchy (expected: " + procs + ")");
            }
            if (!Files.isWritable(root.resolve(controller))) {
                return Optional.of(root.resolve(controller) + " is not writable (expected: run as root)");
            }
        }
        if (!Files.isRegularFile(root.resolve("blkio").resolve("blkio.throttle.read_iops_device"))) {
            return Optional.of("the blkio hierarchy has no throttle (expected: blkio.throttle.read_iops_device)");
        }
        try {
            deviceOf(brickDirectory);
        } catch (IllegalStateException | IOException e) {
            return Optional.of(e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Prepares to emulate servers whose disk is the block device holding {@code brickDirectory} (its whole disk, if
     * the file system is on a partition), after removing the groups of JVMs that no longer run.
     *
     * @throws IllegalStateException with the reason of {@link #unusable} if servers cannot be emulated
     */
    public static EmulatedServers create(Path root, Path brickDirectory) throws IOException {
        Optional<String> why = unusable(root, brickDirectory);
        if (why.isPresent()) {
            throw new IllegalStateException("cannot emulate separate servers: " + why.get());
        }
        EmulatedServers s = new EmulatedServers(root, deviceOf(brickDirectory));
        s.removeStaleGroups();
        Runtime.getRuntime().addShutdownHook(s.shutdownHook);
        return s;
    }

    /** The throttled disk, {@code major:minor}. */
    public String device() {
        return device;
    }

    /** The groups made so far, by name. */
    public Map<String, ServerBudget> groups() {
        return Map.copyOf(groups);
    }

    /**
     * Makes group {@code name} with {@code budget} (if not made yet) and moves process {@code pid}, all its threads,
     * into it.
     *
     * @throws IllegalArgumentException for a name that is not lower-case letters, digits and '-'
     */
    public void add(String name, ServerBudget budget, long pid) throws IOException {
        group(name, budget);
        for (String controller : List.of("cpu", "blkio")) {
            write(dir(controller, name).resolve("cgroup.procs"), Long.toString(pid));
        }
    }

    /**
     * {@code command} wrapped so that its process enters group {@code name} (made with {@code budget}) before it
     * executes: everything it starts, threads included, is then charged to the group.
     */
    public List<String> wrap(String name, ServerBudget budget, List<String> command) throws IOException {
        group(name, budget);
        List<String> wrapped = new ArrayList<>(List.of(
                "sh",
                "-c",
                "echo $$ > \"$1\" && echo $$ > \"$2\" && shift 2 && exec \"$@\"",
                "enter-cgroup",
                dir("cpu", name).resolve("cgroup.procs").toString(),
                dir("blkio", name).resolve("cgroup.procs").toString()));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The processes in group {@code name} now. */
    public List<Long> pids(String name) throws IOException {
        return Files.readAllLines(dir("blkio", name).resolve("cgroup.procs")).stream()
                .filter(l -> !l.isBlank())
                .map(l -> Long.parseLong(l.trim()))
                .toList();
    }

    /** The I/Os the throttle counted for group {@code name} on the disk ({@code blkio.throttle.io_serviced}). */
    public long ioServiced(String name) throws IOException {
        return ioServiced(Files.readString(dir("blkio", name).resolve("blkio.throttle.io_serviced")), device);
    }

    /** The CPU time of group {@code name}'s processes was held back by its quota, in periods ({@code cpu.stat}). */
    public long throttledPeriods(String name) throws IOException {
        for (String line : Files.readAllLines(dir("cpu", name).resolve("cpu.stat"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[0].equals("nr_throttled")) {
                return Long.parseLong(f[1]);
            }
        }
        return 0;
    }

    /** Whether group {@code name}'s directories exist in both hierarchies. */
    public boolean exists(String name) {
        return Files.isDirectory(dir("cpu", name)) && Files.isDirectory(dir("blkio", name));
    }

    /**
     * Moves every process still in a group back to the root group and removes the groups. Idempotent.
     *
     * @throws IllegalStateException naming the groups that could not be removed
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String> left = new ArrayList<>();
        for (String name : groups.keySet()) {
            if (!remove(prefix + name)) {
                left.add(prefix + name);
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down and this close() runs from the hook itself.
        }
        if (!left.isEmpty()) {
            throw new IllegalStateException("cgroups not removed: " + left + " under " + root);
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("emulated servers: " + e.getMessage());
        }
    }

    private void group(String name, ServerBudget budget) throws IOException {
        if (!name.matches("[a-z0-9-]{1,40}")) {
            throw new IllegalArgumentException("group name \"" + name + "\" (expected: 1 to 40 of a-z, 0-9, '-')");
        }
        if (groups.containsKey(name)) {
            return;
        }
        if (closed) {
            throw new IllegalStateException("emulated servers already closed");
        }
        Path cpu = dir("cpu", name);
        Path blkio = dir("blkio", name);
        Files.createDirectories(cpu);
        Files.createDirectories(blkio);
        groups.put(name, budget);
        if (budget.cpuQuotaMicros() > 0) {
            write(cpu.resolve("cpu.cfs_period_us"), Long.toString(budget.cpuPeriodMicros()));
            write(cpu.resolve("cpu.cfs_quota_us"), Long.toString(budget.cpuQuotaMicros()));
        }
        if (budget.cpuShares() > 0) {
            write(cpu.resolve("cpu.shares"), Long.toString(budget.cpuShares()));
        }
        throttle(blkio, "read_iops_device", budget.readIops());
        throttle(blkio, "write_iops_device", budget.writeIops());
        throttle(blkio, "read_bps_device", budget.readBps());
        throttle(blkio, "write_bps_device", budget.writeBps());
    }

    private void throttle(Path blkio, String file, long limit) throws IOException {
        if (limit > 0) {
            write(blkio.resolve("blkio.throttle." + file), device + " " + limit);
        }
    }

    private Path dir(String controller, String name) {
        return root.resolve(controller).resolve(prefix + name);
    }

    /** Moves the group's processes to the root group and removes its directories; false if one stays. */
    private boolean remove(String group) {
        boolean ok = true;
        for (String controller : List.of("cpu", "blkio")) {
            Path dir = root.resolve(controller).resolve(group);
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try {
                // A process may start a thread while it is moved: move until none is left, a few times at most.
                for (int attempt = 0; attempt < 10; attempt++) {
                    List<String> pids = Files.readAllLines(dir.resolve("cgroup.procs")).stream()
                            .filter(l -> !l.isBlank())
                            .toList();
                    if (pids.isEmpty()) {
                        break;
                    }
                    for (String pid : pids) {
                        try {
                            write(root.resolve(controller).resolve("cgroup.procs"), pid.trim());
                        } catch (IOException e) {
                            // The process ended meanwhile: nothing to move.
                        }
                    }
                }
                Files.delete(dir);
            } catch (IOException e) {
                System.err.println("emulated servers: cannot remove " + dir + ": " + e);
                ok = false;
            }
        }
        return ok;
    }

    /** Groups named after a JVM that no longer runs, left by a run that was killed. */
    private void removeStaleGroups() throws IOException {
        for (String controller : List.of("cpu", "blkio")) {
            try (Stream<Path> s = Files.list(root.resolve(controller))) {
                for (Path dir : s.filter(Files::isDirectory).toList()) {
                    String n = dir.getFileName().toString();
                    if (!n.startsWith(PREFIX)) {
                        continue;
                    }
                    String owner = n.substring(PREFIX.length()).replaceAll("-.*", "");
                    if (owner.matches("[0-9]+")
                            && ProcessHandle.of(Long.parseLong(owner)).isEmpty()) {
                        remove(n);
                    }
                }
            }
        }
    }

    private static void write(Path file, String value) throws IOException {
        // cgroup files take one value per write(2), without truncation or a temporary file.
        Files.writeString(file, value, StandardCharsets.US_ASCII, StandardOpenOption.WRITE);
    }

    /** The {@code Total} I/Os of {@code device} in the text of {@code blkio.throttle.io_serviced}; 0 if absent. */
    static long ioServiced(String text, String device) {
        for (String line : text.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[0].equals(device) && f[1].equals("Total")) {
                return Long.parseLong(f[2]);
            }
        }
        return 0;
    }

    /**
     * The whole disk ({@code major:minor}) that holds {@code path}'s file system.
     *
     * @throws IllegalStateException if that file system is not on a block device
     */
    static String deviceOf(Path path) throws IOException {
        Path existing = path.toAbsolutePath();
        while (!Files.exists(existing) && existing.getParent() != null) {
            existing = existing.getParent();
        }
        long dev = (Long) Files.getAttribute(existing, "unix:dev");
        String device = majorMinor(dev);
        Path sys = Path.of("/sys/dev/block", device);
        if (!Files.exists(sys)) {
            throw new IllegalStateException("the file system of " + existing + " is on device " + device
                    + ", which is no block device (expected: a disk blkio can throttle)");
        }
        Path real = sys.toRealPath();
        if (Files.exists(real.resolve("partition"))) {
            return Files.readString(real.getParent().resolve("dev")).trim();
        }
        return device;
    }

    /** glibc's major() and minor() of a {@code dev_t}. */
    static String majorMinor(long dev) {
        long major = ((dev >>> 8) & 0xfff) | ((dev >>> 32) & ~0xfffL);
        long minor = (dev & 0xff) | ((dev >>> 12) & 0xffffff00L);
        return major + ":" + minor;
    }
}
