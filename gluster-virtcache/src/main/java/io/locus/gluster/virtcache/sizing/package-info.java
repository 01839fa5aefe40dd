/**
 * Cache sizing from HCache (Arumugam, ch. 3, §3.4): a segmented shadow LRU's hit-rate curve, the size that meets a
 * latency target, its smoothing, and sharing one cache among several redirected disks by need. Pure Java.
 */
package io.locus.gluster.virtcache.sizing;
