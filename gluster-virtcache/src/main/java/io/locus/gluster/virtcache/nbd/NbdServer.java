package io.locus.gluster.virtcache.nbd;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Network Block Device server (the NBD protocol's fixed newstyle handshake and simple replies) exporting one disk,
 * so that an unmodified QEMU, {@code qemu-img} or {@code qemu-io} attaches it as {@code nbd://host:port}.
 *
 * <p>Handshake options: {@code NBD_OPT_EXPORT_NAME}, {@code NBD_OPT_GO} and {@code NBD_OPT_INFO} (any export name
 * names the one disk), {@code NBD_OPT_ABORT}; others are answered {@code NBD_REP_ERR_UNSUP}, which clients take as
 * "use the basic protocol". Commands: read, write (with FUA: flushed before the reply), flush, trim (acknowledged without discarding: the disk keeps its
 * bytes, which the protocol allows) and disconnect. Requests of one connection are served in order; connections run
 * on their own threads. Blocking sockets: one short-lived thread per client is all a VM disk needs.
 */
public final class NbdServer implements AutoCloseable {
    /** What the server exports. */
    public interface Disk {
        long size() throws IOException;

        byte[] read(long offset, int length) throws IOException;

        void write(long offset, byte[] data) throws IOException;

        void flush() throws IOException;
    }

    static final long NBDMAGIC = 0x4e42444d41474943L;
    static final long IHAVEOPT = 0x49484156454F5054L;
    static final long REPLY_MAGIC = 0x3e889045565a9L;
    static final int REQUEST_MAGIC = 0x25609513;
    static final int SIMPLE_REPLY_MAGIC = 0x67446698;

    static final int FLAG_FIXED_NEWSTYLE = 1;
    static final int FLAG_NO_ZEROES = 2;
    static final int OPT_EXPORT_NAME = 1;
    static final int OPT_ABORT = 2;
    static final int OPT_INFO = 6;
    static final int OPT_GO = 7;
    static final int REP_ACK = 1;
    static final int REP_INFO = 3;
    static final int REP_ERR_UNSUP = 0x80000001;
    static final int REP_ERR_INVALID = 0x80000003;
    static final int INFO_EXPORT = 0;
    static final int TFLAG_HAS_FLAGS = 1;
    static final int TFLAG_SEND_FLUSH = 4;
    static final int TFLAG_SEND_FUA = 8;
    static final int CMD_FLAG_FUA = 1;
    static final int TFLAG_SEND_TRIM = 32;
    static final int CMD_READ = 0;
    static final int CMD_WRITE = 1;
    static final int CMD_DISC = 2;
    static final int CMD_FLUSH = 3;
    static final int CMD_TRIM = 4;
    static final int EIO = 5;
    static final int EINVAL = 22;
    /** Longer requests are refused: 32 MiB is what QEMU sends at most. */
    static final int MAX_REQUEST = 32 << 20;

    private final Disk disk;
    private final ServerSocket socket;
    private final ExecutorService connections = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "nbd-connection");
        t.setDaemon(true);
        return t;
    });
    private final Thread acceptor;
    private volatile boolean closed;

    private NbdServer(Disk disk, ServerSocket socket) {
        this.disk = disk;
        this.socket = socket;
        this.acceptor = new Thread(this::acceptLoop, "nbd-accept-" + socket.getLocalPort());
        this.acceptor.setDaemon(true);
    }

    /**
     * Listens on {@code address}:{@code port} (0 = any free port) and serves {@code disk} until closed.
     *
     * @throws IOException if the port cannot be bound
     */
    public static NbdServer start(Disk disk, InetAddress address, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(address, port));
        NbdServer server = new NbdServer(Objects.requireNonNull(disk, "disk"), s);
        server.acceptor.start();
        return server;
    }

    /** The port the server listens on. */
    public int port() {
        return socket.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        closed = true;
        socket.close();
        connections.shutdownNow();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket c = socket.accept();
                connections.execute(() -> serve(c));
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("nbd: accept failed: " + e);
                }
            }
        }
    }

    private void serve(Socket c) {
        try (c;
                DataInputStream in = new DataInputStream(new BufferedInputStream(c.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(c.getOutputStream()))) {
            c.setTcpNoDelay(true);
            if (handshake(in, out)) {
                transmit(in, out);
            }
        } catch (EOFException e) {
            // The client went away.
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                System.err.println("nbd: connection from " + c.getRemoteSocketAddress() + " ended: " + e);
            }
        }
    }

    /** Returns true when the client asked to go to transmission. */
    private boolean handshake(DataInputStream in, DataOutputStream out) throws IOException {
        out.writeLong(NBDMAGIC);
        out.writeLong(IHAVEOPT);
        out.writeShort(FLAG_FIXED_NEWSTYLE | FLAG_NO_ZEROES);
        out.flush();
        int clientFlags = in.readInt();
        boolean noZeroes = (clientFlags & FLAG_NO_ZEROES) != 0;
        while (true) {
            long magic = in.readLong();
            if (magic != IHAVEOPT) {
                throw new IOException(String.format("option magic %016x (expected: %016x)", magic, IHAVEOPT));
            }
            int option = in.readInt();
            int length = in.readInt();
            if (length < 0 || length > 65536) {
                throw new IOException("option " + option + " of " + length + " bytes (expected: at most 65536)");
            }
            byte[] data = new byte[length];
            in.readFully(data);
            switch (option) {
                case OPT_EXPORT_NAME -> {
                    out.writeLong(disk.size());
                    out.writeShort(transmissionFlags());
                    if (!noZeroes) {
                        out.write(new byte[124]);
                    }
                    out.flush();
                    return true;
                }
                case OPT_INFO, OPT_GO -> {
                    byte[] info = new byte[12];
                    java.nio.ByteBuffer.wrap(info)
                            .putShort((short) INFO_EXPORT)
                            .putLong(disk.size())
                            .putShort((short) transmissionFlags());
                    reply(out, option, REP_INFO, info);
                    reply(out, option, REP_ACK, new byte[0]);
                    if (option == OPT_GO) {
                        return true;
                    }
                }
                case OPT_ABORT -> {
                    reply(out, option, REP_ACK, new byte[0]);
                    return false;
                }
                default ->
                    reply(
                            out,
                            option,
                            REP_ERR_UNSUP,
                            ("option " + option + " not supported").getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    private static int transmissionFlags() {
        return TFLAG_HAS_FLAGS | TFLAG_SEND_FLUSH | TFLAG_SEND_FUA | TFLAG_SEND_TRIM;
    }

    private static void reply(DataOutputStream out, int option, int type, byte[] data) throws IOException {
        out.writeLong(REPLY_MAGIC);
        out.writeInt(option);
        out.writeInt(type);
        out.writeInt(data.length);
        out.write(data);
        out.flush();
    }

    private void transmit(DataInputStream in, DataOutputStream out) throws IOException {
        while (true) {
            int magic = in.readInt();
            if (magic != REQUEST_MAGIC) {
                throw new IOException(String.format("request magic %08x (expected: %08x)", magic, REQUEST_MAGIC));
            }
            int flags = in.readUnsignedShort();
            int type = in.readUnsignedShort();
            long handle = in.readLong();
            long offset = in.readLong();
            long length = Integer.toUnsignedLong(in.readInt());
            int error = 0;
            byte[] payload = null;
            if (length > MAX_REQUEST) {
                if (type == CMD_WRITE) {
                    throw new IOException("write of " + length + " bytes (expected: at most " + MAX_REQUEST + ")");
                }
                error = EINVAL;
            }
            switch (type) {
                case CMD_READ -> {
                    if (error == 0) {
                        try {
                            payload = checkRange(offset, length) ? disk.read(offset, (int) length) : null;
                            if (payload == null) {
                                error = EINVAL;
                            } else if (payload.length < length) {
                                payload = java.util.Arrays.copyOf(payload, (int) length);
                            }
                        } catch (IOException e) {
                            error = EIO;
                        }
                    }
                }
                case CMD_WRITE -> {
                    byte[] data = new byte[(int) length];
                    in.readFully(data);
                    try {
                        if (checkRange(offset, length)) {
                            disk.write(offset, data);
                            if ((flags & CMD_FLAG_FUA) != 0) {
                                // Force unit access: durable before the reply, as a flush right after it would make it.
                                disk.flush();
                            }
                        } else {
                            error = EINVAL;
                        }
                    } catch (IOException e) {
                        error = EIO;
                    }
                }
                case CMD_FLUSH -> {
                    try {
                        disk.flush();
                    } catch (IOException e) {
                        error = EIO;
                    }
                }
                case CMD_TRIM -> error = checkRange(offset, length) ? 0 : EINVAL;
                case CMD_DISC -> {
                    disk.flush();
                    return;
                }
                default -> error = EINVAL;
            }
            out.writeInt(SIMPLE_REPLY_MAGIC);
            out.writeInt(error);
            out.writeLong(handle);
            if (type == CMD_READ && error == 0) {
                out.write(payload);
            }
            out.flush();
        }
    }

    private boolean checkRange(long offset, long length) throws IOException {
        return offset >= 0 && length >= 0 && offset + length <= disk.size();
    }
}
