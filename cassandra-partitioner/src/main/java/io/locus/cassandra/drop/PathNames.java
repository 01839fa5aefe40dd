package io.locus.cassandra.drop;

import java.util.ArrayList;
import java.util.List;

/** String-level path helpers with the same normalisation as {@link PathEncoder}. Pure; thread-safe. */
public final class PathNames {
    private PathNames() {}

    /**
     * The components of an absolute path after normalisation (empty for "/"), or null if the key is not an absolute
     * path or holds a '..' segment (such keys are hashed into the non-path region).
     */
    public static List<String> components(String key) {
        if (key.isEmpty() || key.charAt(0) != '/') {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String s : key.substring(1).split("/", -1)) {
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                return null;
            }
            out.add(s);
        }
        return out;
    }

    /** "/" followed by the first {@code n} components joined with '/'. */
    public static String prefix(List<String> components, int n) {
        if (n == 0) {
            return "/";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append('/').append(components.get(i));
        }
        return b.toString();
    }
}
