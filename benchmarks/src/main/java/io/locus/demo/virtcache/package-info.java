/**
 * A step of {@code ./locus demo}: VirtCache's translator on a real GlusterFS brick, the trace replayed through it. It
 * runs in a JVM of its own on gluster-virtcache's test class path, where its host fixture is
 * (io.locus.launcher.DemoCommand).
 */
package io.locus.demo.virtcache;
