/**
 * Benchmarks of VirtCache ({@code gluster-virtcache}). JMH: the interference detector, HCache's cache sizing, and the
 * hot-block Bloom filter the client consults on every read while a disk is redirected. {@code VirtCacheBench} (with its
 * paired-ratio and CPU-share helpers): the CloudPhysics trace against a real GlusterFS volume with and without a
 * competing fio job, {@code ./locus bench virtcache}; it runs in its own JVM on gluster-virtcache's test class path.
 */
package io.locus.bench.virtcache;
