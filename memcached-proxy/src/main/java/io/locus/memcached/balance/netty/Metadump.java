package io.locus.memcached.balance.netty;

import io.locus.memcached.cache.ByteKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The keys a memcached server holds, as its {@code lru_crawler metadump all} lists them. */
final class Metadump {
    private Metadump() {}

    /** Every key in {@code lru_crawler metadump all} of a backend (blocking; warm thread). */
    static List<ByteKey> keys(InetSocketAddress address) throws IOException {
        List<ByteKey> keys = new ArrayList<>();
        try (Socket s = new Socket()) {
            s.connect(address, 2000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write("lru_crawler metadump all\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("END")) {
                    return keys;
                }
                if (line.startsWith("ERROR") || line.startsWith("BUSY") || line.startsWith("CLIENT_ERROR")) {
                    throw new IOException("lru_crawler metadump at " + address + ": " + line);
                }
                if (line.startsWith("key=")) {
                    int sp = line.indexOf(' ');
                    String printed = URLDecoder.decode( // memcached prints keys URL-encoded
                            line.substring(4, sp < 0 ? line.length() : sp), StandardCharsets.ISO_8859_1);
                    keys.add(new ByteKey(printed.getBytes(StandardCharsets.ISO_8859_1)));
                }
            }
            throw new IOException("lru_crawler metadump at " + address + ": connection closed before END");
        }
    }
}
