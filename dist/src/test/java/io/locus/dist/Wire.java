package io.locus.dist;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** One request on a fresh memcached text-protocol connection, read until the reply ends as expected. */
final class Wire {
    private Wire() {}

    static String exchange(InetSocketAddress address, String request, String endsWith) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(address, 5_000);
            s.setSoTimeout(10_000);
            OutputStream o = s.getOutputStream();
            o.write(request.getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = s.getInputStream();
            StringBuilder reply = new StringBuilder();
            byte[] buf = new byte[4096];
            while (!reply.toString().endsWith(endsWith)) {
                int n = in.read(buf);
                if (n < 0) {
                    break;
                }
                reply.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
            }
            return reply.toString();
        }
    }
}
