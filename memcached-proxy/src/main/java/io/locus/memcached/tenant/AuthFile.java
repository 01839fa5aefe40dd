package io.locus.memcached.tenant;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Users and passwords for memcached's text-protocol authentication, in the format of memcached's {@code -Y} file:
 * one {@code user:password} per line. Empty lines are skipped.
 *
 * <p>Immutable. {@link #check} compares in constant time for a given password length.
 */
public final class AuthFile {
    private final Map<String, byte[]> passwords;

    private AuthFile(Map<String, byte[]> passwords) {
        this.passwords = passwords;
    }

    /**
     * Reads an auth file.
     *
     * @throws IllegalArgumentException naming the file and line if a line has no {@code :} or an empty user
     * @throws IOException if the file cannot be read
     */
    public static AuthFile read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses auth file lines; {@code source} names the file in error messages. */
    public static AuthFile parse(List<String> lines, String source) {
        Map<String, byte[]> users = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException(
                        source + ":" + (i + 1) + ": auth line without user (expected: " + "user:password)");
            }
            users.put(line.substring(0, colon), line.substring(colon + 1).getBytes(StandardCharsets.UTF_8));
        }
        if (users.isEmpty()) {
            throw new IllegalArgumentException(source + ": no users (expected: at least one user:password line)");
        }
        return new AuthFile(users);
    }

    /** Whether {@code user} exists and {@code password} is its password. */
    public boolean check(String user, String password) {
        byte[] expected = passwords.get(user);
        return expected != null && MessageDigest.isEqual(expected, password.getBytes(StandardCharsets.UTF_8));
    }

    public int userCount() {
        return passwords.size();
    }
}
