/**
 * What the {@code virtcache} brick translator publishes about a file, read on the client: the Bloom filter of its hot
 * blocks ({@link io.locus.gluster.virtcache.hotblock.HotBlockFilter}) and its counters
 * ({@link io.locus.gluster.virtcache.hotblock.TranslatorStats}). Pure parsing; the bytes come from any xattr source.
 */
package io.locus.gluster.virtcache.hotblock;
