/**
 * A Network Block Device server ({@link io.locus.gluster.virtcache.nbd.NbdServer}) so that an unmodified QEMU attaches
 * a disk served through VirtCache.
 */
package io.locus.gluster.virtcache.nbd;
