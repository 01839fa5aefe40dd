package io.locus.cassandra.cli;

import io.locus.cli.OutputOptions;
import java.util.List;

/**
 * Points logback (on the class path with Cassandra and the driver) at this CLI's own configuration before the first
 * logger exists: everything on stderr, WARN unless {@code -v} (INFO) or {@code -vv} (DEBUG). Without it, logback's
 * default logs DEBUG to stdout, which breaks {@code --json} and piping. The file has its own name so that a Cassandra
 * node that has this jar in lib/ never picks it up.
 */
final class Logging {
    static final String CONFIG = "locus-drop-logback.xml";
    static final String LEVEL_PROPERTY = "locus.drop.log.level";

    private Logging() {}

    /** Configures logging from the raw arguments, unless the user set {@code logback.configurationFile} already. */
    static void configure(List<String> args) {
        System.setProperty(LEVEL_PROPERTY, OutputOptions.logLevel(args));
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", CONFIG);
        }
    }
}
