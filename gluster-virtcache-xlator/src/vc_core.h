/*
 * VirtCache core: block access counting, the top-N Bloom filter and its wire format.
 *
 * This part has no GlusterFS types, so it is compiled and tested on its own (vc_core_test.c). Memory comes from the
 * allocator passed in (GF_CALLOC in the translator, calloc in the test); every allocation is checked and a failed one
 * degrades counting, never the caller.
 */
#ifndef VC_CORE_H
#define VC_CORE_H

#include <stddef.h>
#include <stdint.h>

/* The filter's wire format (all fields little-endian), shared with the Java reader. */
#define VC_BLOOM_MAGIC "VCBF"
#define VC_BLOOM_VERSION 1
#define VC_BLOOM_HEADER_BYTES 64
/* Keeps every xattr value below the 64 KiB the kernel allows through FUSE. */
#define VC_BLOOM_CHUNK_BYTES 61440
#define VC_BLOOM_SEED 0x56434246u /* "VCBF" */
#define VC_BLOOM_MAX_K 30

/* Linear probing never looks further than this from a block's home slot: bounded time per access. */
#define VC_PROBE_LIMIT 16
#define VC_MIN_SLOTS 1024u
/* At most this many blocks of one request are counted; the rest go to skipped_blocks. */
#define VC_MAX_BLOCKS_PER_REQUEST 4096u
/* The stats xattr lists this many of the current window's hottest blocks. */
#define VC_TOP_LIST 32

typedef void *(*vc_calloc_fn)(size_t n, size_t size);
typedef void (*vc_free_fn)(void *p);

typedef struct {
    vc_calloc_fn calloc_fn;
    vc_free_fn free_fn;
    /* Bytes all counters of one translator may hold together; shared and updated atomically. */
    uint64_t *budget_used;
    uint64_t budget_limit;
} vc_alloc_t;

typedef struct {
    uint64_t block;
    uint64_t count; /* 0 marks an empty slot */
} vc_slot_t;

/* Per-file block counts of the current window: an open-addressing table grown by doubling up to max_slots, then
 * evicting the least counted block within the probe window (Space-Saving: the newcomer inherits that count + 1). */
typedef struct {
    vc_slot_t *slots;
    uint32_t cap;       /* power of two, 0 if no memory could be had */
    uint32_t used;
    uint32_t max_slots; /* power of two */
    uint64_t evictions;
    uint64_t skipped_blocks; /* blocks not counted: no memory, or beyond VC_MAX_BLOCKS_PER_REQUEST */
} vc_counter_t;

typedef struct {
    uint16_t k;
    uint64_t m_bits;
    uint64_t n_inserted;
    uint32_t block_size;
    uint64_t epoch;
    uint64_t window_start_ms;
    uint32_t window_len_ms;
    uint32_t crc32c;
    uint64_t *bits; /* m_bits / 64 words */
} vc_bloom_t;

uint32_t vc_next_pow2(uint64_t v, uint32_t cap);

void vc_murmur3_x64_128_u64(uint64_t key, uint32_t seed, uint64_t *h1, uint64_t *h2);
uint32_t vc_crc32c(const void *data, size_t len);

int vc_counter_init(vc_counter_t *c, const vc_alloc_t *a, uint32_t max_slots);
void vc_counter_free(vc_counter_t *c, const vc_alloc_t *a);
/* Counts one access to every block of [offset, offset+len); returns the number of blocks counted. */
uint32_t vc_counter_add_range(vc_counter_t *c, const vc_alloc_t *a, uint64_t offset, uint64_t len,
                              uint32_t block_size);
uint64_t vc_counter_get(const vc_counter_t *c, uint64_t block);
/* The n most counted blocks (count desc, block asc), without changing the table; returns how many were written. */
uint32_t vc_counter_top(const vc_counter_t *c, vc_slot_t *out, uint32_t n);
/* Writes "block:count" of top[0..n) joined by commas, NUL-terminated, into buf (capacity cap); returns the length
 * without the NUL, or -1 (buf then holds "") if it does not fit. */
int vc_format_top(const vc_slot_t *top, uint32_t n, char *buf, size_t cap);
/* Clears all counts, keeping the table's memory. */
void vc_counter_reset(vc_counter_t *c);

/* Sizes a filter for n items at false-positive rate p: m rounded up to 64 bits, k = round(m/n ln 2) in 1..30. */
void vc_bloom_params(uint64_t n, double p, uint64_t *m_bits, uint16_t *k);
/* Builds the filter of the top_n most counted blocks; consumes (reorders, then clears) the counter. 0 or -1. */
int vc_bloom_build(vc_bloom_t *b, vc_counter_t *c, const vc_alloc_t *a, uint64_t top_n, double fpr,
                   uint64_t max_filter_bytes);
void vc_bloom_add(vc_bloom_t *b, uint64_t block);
int vc_bloom_contains(const vc_bloom_t *b, uint64_t block);
void vc_bloom_free(vc_bloom_t *b, const vc_alloc_t *a);
uint32_t vc_bloom_chunk_count(const vc_bloom_t *b);
/* Writes header + chunk i into out (capacity out_len); returns bytes written, or -1 if i or out_len is bad. */
long vc_bloom_serialize_chunk(const vc_bloom_t *b, uint32_t chunk, unsigned char *out, size_t out_len);
size_t vc_bloom_chunk_bytes(const vc_bloom_t *b, uint32_t chunk);

/* Parses "trusted.virtcache.bloom" (chunk 0) or "trusted.virtcache.bloom.<i>" with i a decimal without leading zeros
 * below 2^31. Returns the chunk index, or -1 for any other name. */
long vc_parse_bloom_name(const char *name);

/* The brick's saved counts and filters, so that they survive a brick restart. All fields little-endian.
 * File: header (magic "VCST", version u32, records u32, CRC-32C of those 12 bytes u32), then the records.
 * Record: body length u32, body, CRC-32C of the body u32. Body: the file's gfid (16 bytes), the window's block size
 * u32, the number of counted blocks u32, epoch u64, window start (ms since the epoch, real clock) u64, reads, writes,
 * read_bytes, write_bytes, window_reads, window_writes, window evictions, window skipped blocks (u64 each); the filter
 * of the last window (k u16 and 2 bytes reserved, all 0 without one; block size u32, m bits u64, n u64, epoch u64,
 * window start u64, window length u32, CRC-32C of the bit array u32); then (block u64, count u64) per counted block,
 * then the filter's m/8 bytes of bits. */
#define VC_STATE_MAGIC "VCST"
#define VC_STATE_VERSION 1
#define VC_STATE_HEADER_BYTES 16

/* A file's counts as saved, apart from its table and filter. */
typedef struct {
    unsigned char gfid[16];
    uint32_t block_size;
    uint64_t epoch;
    uint64_t window_start_real_ms;
    uint64_t reads, writes, read_bytes, write_bytes, window_reads, window_writes;
} vc_file_counts_t;

/* Bytes vc_state_put_record writes for this table and filter (the filter may have no bits). */
size_t vc_state_record_bytes(const vc_counter_t *c, const vc_bloom_t *b);
/* Writes one record into out, which holds vc_state_record_bytes(c, b); returns the bytes written. */
size_t vc_state_put_record(unsigned char *out, const vc_file_counts_t *f, const vc_counter_t *c, const vc_bloom_t *b);
void vc_state_put_header(unsigned char *out, uint32_t records);
/* The number of records the header at in announces, or -1 with *why saying what is wrong. */
long vc_state_check_header(const unsigned char *in, size_t len, const char **why);
/* Checks the record at in (len bytes available): lengths, fields and both checksums. Returns the record's size in
 * bytes, or -1 with *why saying what is wrong. Reads nothing beyond in + len. */
long vc_state_check_record(const unsigned char *in, size_t len, const char **why);
const unsigned char *vc_state_record_gfid(const unsigned char *rec);
/* Restores a record vc_state_check_record accepted: the counts into f, the blocks added to c (initialised by the
 * caller; a block that does not fit is evicted or skipped as a counted one would be), the filter into b. Returns 0, or
 * -1 if the filter's memory could not be had: b is then empty and the rest restored. */
int vc_state_restore(const unsigned char *rec, vc_file_counts_t *f, vc_counter_t *c, vc_bloom_t *b,
                     const vc_alloc_t *a);

/* The interference detector (same model as the Java io.locus.gluster.virtcache.detector package): every sub-interval
 * each file's response time is predicted as R = d / (1 - U), U = sum over files of (1 + headroom) * lambda / n * d,
 * and each evaluation compares the p90 of the recent predictions with the p90 of those made at low load. One
 * vc_det_t per file; no clock and no locking inside, the translator drives it. */
#define VC_DET_MAX_SAMPLES 64

typedef enum { VC_DET_NORMAL = 0, VC_DET_INTERFERED = 1 } vc_det_state_t;

typedef struct {
    double headroom;
    uint32_t parallel_io;
    double low_load_queue_depth;
    double threshold;
    uint32_t samples_per_window; /* clamped to 1..VC_DET_MAX_SAMPLES */
    uint32_t confirm_evaluations;
} vc_det_config_t;

typedef struct {
    double values[VC_DET_MAX_SAMPLES];
    uint32_t next, size;
} vc_ring_t;

typedef struct {
    vc_ring_t recent, low_load;
    uint32_t violations;
    uint32_t since_evaluation;
    uint64_t evaluations;
    double p90, low_load_p90;
    vc_det_state_t state;
} vc_det_t;

/* One file's share of U in a sub-interval. */
double vc_det_utilization(const vc_det_config_t *c, double arrivals_per_s, double device_s);
/* Records one sub-interval's prediction for the file; the prediction also becomes low-load baseline when the device's
 * average queue depth was below the threshold and the file is not INTERFERED. Returns 1 if the sub-interval completed a window and an evaluation
 * ran (Algorithm 2: violation if p90 - low_p90 > threshold * low_p90, INTERFERED after confirm_evaluations in a row,
 * NORMAL again at the first evaluation without violation). */
int vc_det_record(vc_det_t *d, const vc_det_config_t *c, double u, double device_s, double queue_depth);
/* Nearest-rank 90th percentile of the ring; 0 when empty. */
double vc_ring_p90(const vc_ring_t *r);
const char *vc_det_state_name(vc_det_state_t s);

#endif
