/**
 * Client support: {@link io.locus.cassandra.driver.DropDriver#sessionBuilder()} makes the DataStax driver 4.x route
 * by DROP tokens. Needs only the driver and the pure core, not Cassandra.
 */
package io.locus.cassandra.driver;
