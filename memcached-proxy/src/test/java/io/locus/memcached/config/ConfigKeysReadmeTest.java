package io.locus.memcached.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The README's configuration table lists exactly the keys of {@link ConfigKeys}, with the same defaults. */
class ConfigKeysReadmeTest {
    private static final Pattern ROW =
            Pattern.compile("^\\| `([a-z0-9_.]+)` \\| [a-z]+ \\| `([^`]*)` \\|", Pattern.MULTILINE);

    @Test
    void readmeTable_matchesConfigKeys() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        Map<String, String> documented = new LinkedHashMap<>();
        Matcher m = ROW.matcher(readme);
        while (m.find()) {
            documented.put(m.group(1), m.group(2));
        }
        for (ConfigKey k : ConfigKeys.ALL) {
            assertTrue(documented.containsKey(k.name()), "README.md has no row for " + k.name());
            assertEquals(k.defaultValue(), documented.get(k.name()), "README.md default of " + k.name());
        }
        assertEquals(
                ConfigKeys.ALL.size(),
                documented.size(),
                "README.md documents keys that do not exist: " + documented.keySet());
    }
}
