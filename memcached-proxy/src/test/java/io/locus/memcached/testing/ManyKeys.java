package io.locus.memcached.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Gets of many keys for the tests of large multi-gets: the keys {@code key:0 … key:N-1}, of which every
 * {@link #STORED_EVERY}-th holds {@code value-<i>}, and a reader that takes exactly one get's reply off a stream.
 */
public final class ManyKeys {
    /** Every 200th key is stored: 50 of 10,000, 100 of 20,000. */
    public static final int STORED_EVERY = 200;

    private ManyKeys() {}

    public static String key(int i) {
        return "key:" + i;
    }

    /** {@code get key:0 … key:<n-1>\r\n}. */
    public static String get(int n) {
        StringBuilder get = new StringBuilder(n * 11).append("get");
        for (int i = 0; i < n; i++) {
            get.append(' ').append(key(i));
        }
        return get.append("\r\n").toString();
    }

    /** The {@code set … noreply} lines that store the stored keys among the first {@code n}. */
    public static String sets(int n) {
        return storedItems(n, "set ", " 0 0 ", " noreply");
    }

    /** What memcached answers to {@link #get}: the stored keys' items in request order, then {@code END}. */
    public static String expectedReply(int n) {
        return storedItems(n, "VALUE ", " 0 ", "") + "END\r\n";
    }

    /** {@code <verb><key><flags><length><tail>\r\n<value>\r\n} for each stored key among the first {@code n}. */
    private static String storedItems(int n, String verb, String flags, String tail) {
        StringBuilder items = new StringBuilder();
        for (int i = 0; i < n; i += STORED_EVERY) {
            String value = "value-" + i;
            items.append(verb)
                    .append(key(i))
                    .append(flags)
                    .append(value.length())
                    .append(tail);
            items.append("\r\n").append(value).append("\r\n");
        }
        return items.toString();
    }

    /**
     * Reads one reply to a classic get: {@code VALUE} items (each line and its data block) up to {@code END}, or one
     * error line. Fails on EOF or at the socket's read timeout.
     */
    public static String readReply(InputStream in) throws IOException {
        StringBuilder reply = new StringBuilder();
        while (true) {
            String line = readLine(in);
            reply.append(line);
            if (line.startsWith("VALUE ")) {
                String[] tokens = line.trim().split(" ");
                int length = Integer.parseInt(tokens[3]);
                byte[] data = in.readNBytes(length + 2);
                if (data.length < length + 2) {
                    throw new IOException("connection closed inside a value after: " + preview(reply));
                }
                reply.append(new String(data, StandardCharsets.ISO_8859_1));
            } else {
                return reply.toString(); // END, or an error line
            }
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            line.write(b);
            if (b == '\n') {
                return line.toString(StandardCharsets.ISO_8859_1);
            }
        }
        throw new IOException("connection closed after: " + line.toString(StandardCharsets.ISO_8859_1));
    }

    /** The start of a reply, for messages. */
    public static String preview(CharSequence reply) {
        String s = reply.subSequence(0, Math.min(200, reply.length())).toString();
        return s.replace("\r", "\\r").replace("\n", "\\n") + (reply.length() > 200 ? "…" : "");
    }
}
