package io.locus.hdfs.cast.io;

/**
 * A file that cannot be used, with where and why: the file, the key (a path such as {@code jobs[3].inputGb}), the
 * value found and what was expected. Nothing is applied from a file that raises it.
 */
public final class InputException extends RuntimeException {
    private final String file;
    private final String key;
    private final String value;
    private final String expected;

    public InputException(String file, String key, Object value, String expected) {
        super(file + ": " + (key.isEmpty() ? "(top level)" : key) + ": got " + show(value) + ", expected " + expected);
        this.file = file;
        this.key = key;
        this.value = show(value);
        this.expected = expected;
    }

    public InputException(String file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
        this.key = "";
        this.value = "";
        this.expected = message;
    }

    private static String show(Object v) {
        if (v == null) {
            return "nothing";
        }
        if (v instanceof String s) {
            return "\"" + s + "\"";
        }
        String text = String.valueOf(v);
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    public String file() {
        return file;
    }

    public String key() {
        return key;
    }

    public String value() {
        return value;
    }

    public String expected() {
        return expected;
    }
}
