/**
 * libgfapi, GlusterFS's client library, from Java over JNA: {@link io.locus.gluster.gfapi.GlusterVolume} (one
 * {@code glfs_t} per volume per JVM), {@link io.locus.gluster.gfapi.GlusterFile} and
 * {@link io.locus.gluster.gfapi.GlusterException} (errno and path).
 */
package io.locus.gluster.gfapi;
