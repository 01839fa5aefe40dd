/**
 * A step of {@code ./locus demo}: CAST plans, and a plan applied to a MiniDFSCluster running the placement policy. It
 * runs in a JVM of its own on cast-tools' test class path, where its host fixture is (io.locus.launcher.DemoCommand).
 */
package io.locus.demo.cast;
