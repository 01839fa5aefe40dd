/** Applies a CAST plan to HDFS from a client (directories, storage policies, quotas, the Mover). */
package io.locus.hdfs.apply;
