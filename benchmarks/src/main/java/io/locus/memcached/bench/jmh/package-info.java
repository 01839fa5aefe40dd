/**
 * JMH benchmarks of the memcached proxy's hot paths, calling its classes in this JVM: request decoding
 * ({@link io.locus.memcached.bench.jmh.RequestDecodeBenchmark}), reply encoding
 * ({@link io.locus.memcached.bench.jmh.ReplyEncodeBenchmark}), the backend side of a request (encoding it, framing
 * the reply: {@link io.locus.memcached.bench.jmh.BackendWireBenchmark}), ketama placement
 * ({@link io.locus.memcached.bench.jmh.KetamaBenchmark}), the deadline cache's get, put and evict
 * ({@link io.locus.memcached.bench.jmh.DeadlineCacheBenchmark}), the scheduler's enqueue/dequeue and admission decision
 * ({@link io.locus.memcached.bench.jmh.SchedulerBenchmark}) and MBal's hot-key tracking
 * ({@link io.locus.memcached.bench.jmh.HotKeyBenchmark}). Inputs come from {@code ./locus bench proxy}'s workload
 * ({@link io.locus.memcached.bench.jmh.ProxyWorkload}). Run with {@code ./locus bench jmh [JMH options]}.
 */
package io.locus.memcached.bench.jmh;
