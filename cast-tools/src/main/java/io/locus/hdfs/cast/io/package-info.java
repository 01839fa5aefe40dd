/**
 * The tool's files: workloads, tiers and plans (YAML or JSON, each with a schema version), and the SWIM trace
 * converter. Every bad file raises {@link io.locus.hdfs.cast.io.InputException} naming file, key, value and what was
 * expected.
 */
package io.locus.hdfs.cast.io;
