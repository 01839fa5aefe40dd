package io.locus.hdfs.cast.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/** Reads and writes the tool's files: JSON (Jackson) for {@code .json}, YAML (SnakeYAML) otherwise. */
final class Documents {
    private Documents() {}

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    static boolean isJson(Path p) {
        return p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json");
    }

    /** The file's root value, checked to carry {@code schema: <expectedSchema>}. */
    static Node read(Path p, String expectedSchema) {
        String file = p.toString();
        Object root;
        try (Reader r = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
            if (isJson(p)) {
                root = JSON.readValue(r, Object.class);
            } else {
                LoaderOptions options = new LoaderOptions();
                options.setAllowDuplicateKeys(false);
                // A 25,000-job trace is about 4 MB of YAML; SnakeYAML's default cap is 3 MB.
                options.setCodePointLimit(512 * 1024 * 1024);
                root = new Yaml(new SafeConstructor(options)).load(r);
            }
        } catch (JsonProcessingException e) {
            throw new InputException(
                    file,
                    "not valid JSON: " + e.getOriginalMessage() + " at line "
                            + e.getLocation().getLineNr(),
                    e);
        } catch (YAMLException e) {
            throw new InputException(file, "not valid YAML: " + e.getMessage().replace('\n', ' '), e);
        } catch (IOException e) {
            throw new InputException(file, "cannot be read: " + e, e);
        }
        Node node = new Node(file, "", root);
        if (!(root instanceof Map)) {
            throw node.error("a mapping with schema: " + expectedSchema);
        }
        Node schema = node.get("schema");
        if (!expectedSchema.equals(schema.raw())) {
            throw schema.error("\"" + expectedSchema + "\" (the file's kind and schema version)");
        }
        return node;
    }

    static void write(Path p, Map<String, Object> doc) {
        try {
            if (p.getParent() != null) {
                Files.createDirectories(p.getParent());
            }
            if (isJson(p)) {
                JSON.writeValue(p.toFile(), doc);
            } else {
                DumperOptions o = new DumperOptions();
                o.setDefaultFlowStyle(DumperOptions.FlowStyle.AUTO);
                o.setWidth(120);
                try (var w = Files.newBufferedWriter(p, StandardCharsets.UTF_8)) {
                    new Yaml(o).dump(doc, w);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + p, e);
        }
    }

    /** Maps keep their insertion order in YAML too. */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            if (kv[i + 1] != null) {
                m.put((String) kv[i], kv[i + 1]);
            }
        }
        return m;
    }
}
