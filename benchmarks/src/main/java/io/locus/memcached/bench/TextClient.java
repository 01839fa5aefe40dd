package io.locus.memcached.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A blocking memcached text-protocol connection, one request in flight: classic {@code get} and {@code set}, which
 * memcached, twemproxy and the Locus proxy all speak (twemproxy 0.5 has no meta commands, so tenants and deadlines
 * travel in the key prefix). Not thread-safe.
 */
final class TextClient implements AutoCloseable {
    private static final byte[] CRLF = {'\r', '\n'};
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final StringBuilder line = new StringBuilder(128);

    TextClient(InetSocketAddress address, int timeoutMillis) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, timeoutMillis);
        socket.setSoTimeout(timeoutMillis);
        in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
    }

    /** {@code get key}: HIT, MISS, REJECTED (a deadline or quota {@code SERVER_ERROR}) or ERROR. */
    OpStats.Reply get(String key) throws IOException {
        out.write(("get " + key + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String first = readLine();
        if (first.startsWith("VALUE ")) {
            String[] parts = first.split(" ");
            int bytes = Integer.parseInt(parts[3]);
            skip(bytes + 2);
            String end = readLine();
            if (!end.equals("END")) {
                throw new IOException("after VALUE of " + key + ": \"" + end + "\" (expected: END)");
            }
            return OpStats.Reply.HIT;
        }
        if (first.equals("END")) {
            return OpStats.Reply.MISS;
        }
        return classifyError(first);
    }

    /** {@code set key 0 0 n}: STORED, REJECTED or ERROR. */
    OpStats.Reply set(String key, byte[] value) throws IOException {
        out.write(("set " + key + " 0 0 " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(value);
        out.write(CRLF);
        out.flush();
        String reply = readLine();
        return reply.equals("STORED") ? OpStats.Reply.STORED : classifyError(reply);
    }

    /** Sends raw bytes (preload pipelines). */
    void write(byte[] bytes) throws IOException {
        out.write(bytes);
    }

    /** Flushes and sends {@code mn}, then waits for {@code MN}: every earlier request has been processed. */
    void sync() throws IOException {
        out.write("mn\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        String reply;
        while (!(reply = readLine()).equals("MN")) {
            if (reply.startsWith("CLIENT_ERROR") || reply.startsWith("SERVER_ERROR") || reply.equals("ERROR")) {
                throw new IOException("preload: memcached answered \"" + reply + "\"");
            }
        }
    }

    /** Sends one line and reads lines up to and including {@code END}. */
    java.util.List<String> command(String command) throws IOException {
        out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        java.util.List<String> lines = new java.util.ArrayList<>();
        String reply;
        while (!(reply = readLine()).equals("END")) {
            lines.add(reply);
            if (reply.equals("ERROR") || reply.startsWith("CLIENT_ERROR") || reply.startsWith("SERVER_ERROR")) {
                break;
            }
        }
        return lines;
    }

    static OpStats.Reply classifyError(String reply) {
        if (reply.startsWith("SERVER_ERROR") && (reply.contains("deadline") || reply.contains("tenant quota"))) {
            return OpStats.Reply.REJECTED;
        }
        return OpStats.Reply.ERROR;
    }

    private String readLine() throws IOException {
        line.setLength(0);
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed by " + socket.getRemoteSocketAddress());
            }
            if (previous == '\r' && b == '\n') {
                line.setLength(line.length() - 1);
                return line.toString();
            }
            line.append((char) b);
            previous = b;
        }
    }

    private void skip(int bytes) throws IOException {
        long left = bytes;
        while (left > 0) {
            long n = in.skip(left);
            if (n <= 0) {
                if (in.read() < 0) {
                    throw new IOException("connection closed inside a value");
                }
                n = 1;
            }
            left -= n;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing anyway.
        }
    }
}
