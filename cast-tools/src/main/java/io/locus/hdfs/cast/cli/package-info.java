/** The {@code locus-cast} command line (picocli): {@code plan} and {@code convert-swim}. */
package io.locus.hdfs.cast.cli;
