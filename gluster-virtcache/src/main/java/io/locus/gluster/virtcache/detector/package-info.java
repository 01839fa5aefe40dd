/**
 * Workload interference detection (Arumugam, ch. 3, §3.7.1): the queueing-model detector
 * ({@link io.locus.gluster.virtcache.detector.InterferenceDetector}) and its feed from the translator's counters
 * ({@link io.locus.gluster.virtcache.detector.LoadSampler}). Pure Java, no clock inside.
 */
package io.locus.gluster.virtcache.detector;
