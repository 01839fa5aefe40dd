package io.locus.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The version of the build these tools come from, one string for every tool, archive and package: Maven writes it into
 * this module's resources. As a picocli version provider it answers {@code --version} with
 * {@code <tool name> <version>}.
 */
public final class BuildVersion implements IVersionProvider {
    private static final String VERSION = read();

    /** The build's version, e.g. {@code 0.1.0} or {@code 0.1.0-SNAPSHOT}. */
    public static String get() {
        return VERSION;
    }

    @Override
    public String[] getVersion() {
        return new String[] {"${COMMAND-FULL-NAME} " + VERSION};
    }

    private static String read() {
        try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                throw new IllegalStateException("io/locus/cli/version.properties is missing from the class path");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
