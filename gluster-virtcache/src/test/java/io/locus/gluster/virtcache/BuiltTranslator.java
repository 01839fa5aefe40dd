package io.locus.gluster.virtcache;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The brick translator the real-brick tests install: the {@code virtcache.so} that the gluster-virtcache-xlator
 * module built, the same file the release's brick archive carries.
 */
public final class BuiltTranslator {
    /** Set by this module's Surefire and Failsafe configuration. */
    public static final String PROPERTY = "locus.virtcache.translator";

    private BuiltTranslator() {}

    /** The built library; fails with what to run when the module was not built first. */
    public static Path library() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            throw new IllegalStateException(
                    "system property " + PROPERTY + " is not set (expected: the path of gluster-virtcache-xlator's"
                            + " target/xlator/virtcache.so; run the tests through Maven)");
        }
        Path library = Path.of(configured);
        if (!Files.isReadable(library)) {
            throw new IllegalStateException("the brick translator " + library + " is missing (build it with: mvn -pl"
                    + " gluster-virtcache-xlator package)");
        }
        return library;
    }
}
