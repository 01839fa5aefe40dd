/**
 * The CAST/CAST++ model in plain Java (no Hadoop, no OptaPlanner): tiers, job profiles, workloads, the runtime
 * estimator (Eq. 4.1), cost and tenant utility (Eqs. 4.2-4.6), CAST++ reuse and workflows (Eqs. 4.7-4.10), as in
 * Yue Cheng, "Workload-aware Efficient Storage Systems" (Virginia Tech), chapter 4.
 */
package io.locus.hdfs.cast.model;
