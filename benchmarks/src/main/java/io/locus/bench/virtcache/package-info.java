/**
 * JMH benchmarks of VirtCache ({@code gluster-virtcache}): the interference detector, HCache's cache sizing, and the
 * hot-block Bloom filter the client consults on every read while a disk is redirected.
 */
package io.locus.bench.virtcache;
