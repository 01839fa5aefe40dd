/**
 * A step of {@code ./locus demo}: DROP on a real Cassandra node. It runs in a JVM of its own on drop-tools' test class
 * path, where its host fixture is (io.locus.launcher.DemoCommand).
 */
package io.locus.demo.drop;
