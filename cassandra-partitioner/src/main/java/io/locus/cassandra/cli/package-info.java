/**
 * The {@code locus-drop} command line ({@link io.locus.cassandra.cli.DropCommand}): {@code plan} and {@code evaluate}
 * use only the pure core and run without Cassandra; {@code rebalance} also needs the DataStax driver on the class path.
 */
package io.locus.cassandra.cli;
