/**
 * The {@code locus-virtcache} command line ({@link io.locus.gluster.virtcache.cli.VirtCacheCommand}, run by
 * {@code ./locus virtcache}): {@code hot}, {@code status}, {@code replay} and {@code serve}, each with {@code --json}
 * where it prints results.
 */
package io.locus.gluster.virtcache.cli;
