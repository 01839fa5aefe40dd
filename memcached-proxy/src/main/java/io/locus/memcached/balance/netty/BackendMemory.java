package io.locus.memcached.balance.netty;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * What a memcached server says of its memory: {@code bytes} (item bytes stored) and {@code limit_maxbytes} (its
 * {@code -m}), read from its general {@code stats} on a connection of its own. Phase 3's planner keeps a moved
 * bucket within the destination's memory (MBal §3.4 constraints (10)-(11), BALANCE.md, "Phase 3": bucket bytes from
 * polled stats).
 *
 * @param bytes memcached's {@code bytes}
 * @param limitMaxBytes memcached's {@code limit_maxbytes}
 */
record BackendMemory(long bytes, long limitMaxBytes) {

    /**
     * Asks one server; blocking (a poller thread, never an event loop).
     *
     * @throws IOException if the server cannot be reached or its reply lacks either figure
     */
    static BackendMemory poll(InetSocketAddress address) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 2000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write("stats\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            return parse(in, address);
        }
    }

    /** Reads {@code STAT} lines up to {@code END}. */
    static BackendMemory parse(BufferedReader in, Object from) throws IOException {
        long bytes = -1;
        long limit = -1;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("END")) {
                if (bytes < 0 || limit <= 0) {
                    throw new IOException("stats of " + from + ": no bytes/limit_maxbytes lines");
                }
                return new BackendMemory(bytes, limit);
            }
            if (line.startsWith("STAT bytes ")) {
                bytes = number(line, from);
            } else if (line.startsWith("STAT limit_maxbytes ")) {
                limit = number(line, from);
            } else if (!line.startsWith("STAT ")) {
                throw new IOException("stats of " + from + ": unexpected line \"" + line + "\"");
            }
        }
        throw new IOException("stats of " + from + ": connection closed before END");
    }

    private static long number(String line, Object from) throws IOException {
        try {
            return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1).strip());
        } catch (NumberFormatException e) {
            throw new IOException("stats of " + from + ": not a number in \"" + line + "\"");
        }
    }
}
