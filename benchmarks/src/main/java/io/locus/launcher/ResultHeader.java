package io.locus.launcher;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Pattern;

/** The head of a bench result file: when, what code, on what machine, with which command. */
public record ResultHeader(
        String area, List<String> args, Instant date, String commit, String machine, String java, String load) {
    private static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%^-]+");

    /** The markdown text, ending with a blank line. */
    public String render() {
        return "# ./locus bench " + area + "\n\n"
                + "- date: " + UTC.format(date) + "\n"
                + "- commit: " + commit + "\n"
                + "- machine: " + machine + "\n"
                + "- java: " + java + "\n"
                + "- load average at start: " + load + "\n"
                + "- command: `" + command() + "`\n\n";
    }

    /** The command line as a shell would take it back: arguments with spaces or quotes are single-quoted. */
    public String command() {
        StringBuilder b = new StringBuilder("./locus bench ").append(area);
        for (String a : args) {
            b.append(' ').append(shellQuote(a));
        }
        return b.toString();
    }

    static String shellQuote(String arg) {
        if (PLAIN.matcher(arg).matches()) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }
}
