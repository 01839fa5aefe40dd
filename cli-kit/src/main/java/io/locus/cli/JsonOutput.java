package io.locus.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/** What {@code --json} prints: maps, lists, strings, numbers, booleans, arrays and null, with Jackson. */
public final class JsonOutput {
    private static final ObjectMapper LINE = new ObjectMapper();
    private static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonOutput() {}

    /** {@code value} as one line of JSON. */
    public static String line(Object value) {
        return write(LINE, value);
    }

    /** {@code value} as indented JSON, for documents a person is likely to read. */
    public static String pretty(Object value) {
        return write(PRETTY, value);
    }

    /** Prints {@code value} as one line of JSON on {@code out} and flushes it. */
    public static void print(PrintWriter out, Object value) {
        out.println(line(value));
        out.flush();
    }

    private static String write(ObjectMapper mapper, Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }
}
