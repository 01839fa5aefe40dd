/**
 * The {@code locus-drop} command line ({@link io.locus.cassandra.cli.DropCommand}): {@code plan} and {@code evaluate}
 * use only the token scheme and the planners and run without Cassandra; {@code rebalance} reads a live cluster through
 * the DataStax driver.
 */
package io.locus.cassandra.cli;
