/** Replaying a block trace (the CloudPhysics CSV format) against a disk, with latency percentiles. */
package io.locus.gluster.virtcache.replay;
