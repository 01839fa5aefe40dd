package io.locus.memcached.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A raw-socket memcached client for tests: sends bytes, reads replies until a terminator or a timeout. */
public final class RawClient implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    public RawClient(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.connect(address, 2000);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(5000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    public void send(byte[] data) throws IOException {
        out.write(data);
        out.flush();
    }

    public void send(String s) throws IOException {
        send(bytes(s));
    }

    /** Sends {@code script} followed by {@code mn} and returns everything before the final {@code MN\r\n}. */
    public byte[] exchange(byte[] script) throws IOException {
        byte[] withNoop = Arrays.copyOf(script, script.length + 4);
        System.arraycopy(bytes("mn\r\n"), 0, withNoop, script.length, 4);
        send(withNoop);
        byte[] all = readUntilEndsWith(bytes("MN\r\n"));
        return Arrays.copyOf(all, all.length - 4);
    }

    public String exchange(String script) throws IOException {
        return new String(exchange(bytes(script)), StandardCharsets.ISO_8859_1);
    }

    /** Reads until the bytes read so far end with {@code end}; fails on EOF or after the socket timeout. */
    public byte[] readUntilEndsWith(byte[] end) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        while (true) {
            int n = in.read(buf);
            if (n < 0) {
                throw new IOException(
                        "connection closed after " + got.size() + " bytes: " + preview(got.toByteArray()));
            }
            got.write(buf, 0, n);
            byte[] sofar = got.toByteArray();
            if (sofar.length >= end.length
                    && Arrays.equals(sofar, sofar.length - end.length, sofar.length, end, 0, end.length)) {
                return sofar;
            }
        }
    }

    /** How long a read waits for the next byte before it fails (5 s unless set). */
    public RawClient readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
        return this;
    }

    /** Reads whatever arrives until EOF or {@code millis} of silence. */
    public byte[] readAvailable(int millis) throws IOException {
        socket.setSoTimeout(millis);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        try {
            int n;
            while ((n = in.read(buf)) >= 0) {
                got.write(buf, 0, n);
            }
        } catch (SocketTimeoutException e) {
            // silence: done
        } catch (IOException e) {
            // reset by the peer: what was read is the answer
        } finally {
            socket.setSoTimeout(5000);
        }
        return got.toByteArray();
    }

    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    public static String preview(byte[] b) {
        String s = new String(b, 0, Math.min(b.length, 300), StandardCharsets.ISO_8859_1);
        return s.replace("\r", "\\r").replace("\n", "\\n");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
