/**
 * The VirtCache client (Arumugam, ch. 3, §3.7.3): {@link io.locus.gluster.virtcache.client.RedirectingDisk} routes
 * each block between a disk's primary file and its shadow image on a log volume by state, with a journaled block map;
 * {@link io.locus.gluster.virtcache.client.VirtCacheClient} runs it on two Gluster volumes through libgfapi.
 */
package io.locus.gluster.virtcache.client;
