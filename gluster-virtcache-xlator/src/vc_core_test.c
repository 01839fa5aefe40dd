/* Unit tests of vc_core.c, run by `make check` (and so by the module's Maven build). Exits non-zero on failure. */
#include "vc_core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (!(cond)) {                                                                                               \
            failures++;                                                                                              \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                          \
            fprintf(stderr, __VA_ARGS__);                                                                            \
            fprintf(stderr, "\n");                                                                                   \
        }                                                                                                            \
    } while (0)

static int fail_allocs_after = -1; /* -1: never fail */
static void *test_calloc(size_t n, size_t size)
{
    if (fail_allocs_after == 0)
        return NULL;
    if (fail_allocs_after > 0)
        fail_allocs_after--;
    return calloc(n, size);
}
static uint64_t used;
static vc_alloc_t alloc = {test_calloc, free, &used, 1ULL << 30};

static void test_murmur_vectors(void)
{
    /* MurmurHash3 x64/128 of u64_le(key), seed "VCBF"; the Java reader's test checks the same vectors and its own
     * hash against Guava's murmur3_128. */
    static const struct {
        uint64_t key, h1, h2;
    } v[] = {
        {0, 0xd1b63eb8aed4c321ULL, 0x167af69f0a64a0d6ULL},
        {1, 0xc12aa54b059d2389ULL, 0x567467d057dfb233ULL},
        {2, 0x134b1cb947711735ULL, 0x3d97586ec1898f16ULL},
        {3, 0x36d3d3cdd366f14bULL, 0x758906bfffc95597ULL},
    };
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        uint64_t h1, h2;
        vc_murmur3_x64_128_u64(v[i].key, VC_BLOOM_SEED, &h1, &h2);
        CHECK(h1 == v[i].h1 && h2 == v[i].h2, "key %llu: %016llx %016llx", (unsigned long long)v[i].key,
              (unsigned long long)h1, (unsigned long long)h2);
    }
}

static void test_crc32c(void)
{
    /* RFC 3720 B.4: 32 bytes of zeros. */
    unsigned char z[32] = {0};
    CHECK(vc_crc32c(z, 32) == 0x8a9136aau, "%08x", vc_crc32c(z, 32));
    CHECK(vc_crc32c("123456789", 9) == 0xe3069283u, "%08x", vc_crc32c("123456789", 9));
}

static void test_counts_equal_accesses(void)
{
    vc_counter_t c;
    CHECK(vc_counter_init(&c, &alloc, 1u << 16) == 0, "init");
    for (int i = 0; i < 5; i++)
        vc_counter_add_range(&c, &alloc, 3 * 65536 + 100, 10, 65536);
    /* A read spanning blocks 20 and 21. */
    CHECK(vc_counter_add_range(&c, &alloc, 20 * 65536 + 65000, 1000, 65536) == 2, "two blocks");
    CHECK(vc_counter_get(&c, 3) == 5, "block 3: %llu", (unsigned long long)vc_counter_get(&c, 3));
    CHECK(vc_counter_get(&c, 20) == 1 && vc_counter_get(&c, 21) == 1, "blocks 20, 21");
    CHECK(vc_counter_get(&c, 4) == 0, "block 4 untouched");
    CHECK(vc_counter_add_range(&c, &alloc, 0, 0, 65536) == 0, "empty read counts nothing");
    /* Offset near 2^64: the range must not wrap. */
    CHECK(vc_counter_add_range(&c, &alloc, UINT64_MAX - 10, 100, 65536) == 1, "end of offset space");
    /* Many distinct blocks: the table grows and every count stays exact. */
    for (uint64_t b = 1000; b < 31000; b++)
        vc_counter_add_range(&c, &alloc, b * 4096, 4096, 4096);
    uint64_t wrong = 0;
    for (uint64_t b = 1000; b < 31000; b++)
        wrong += vc_counter_get(&c, b) != 1;
    CHECK(wrong == 0 && c.evictions == 0, "wrong=%llu evictions=%llu cap=%u", (unsigned long long)wrong,
          (unsigned long long)c.evictions, c.cap);
    vc_slot_t top[3];
    CHECK(vc_counter_top(&c, top, 3) == 3, "top 3");
    CHECK(top[0].block == 3 && top[0].count == 5, "hottest block 3, got %llu", (unsigned long long)top[0].block);
    vc_counter_free(&c, &alloc);
    CHECK(used == 0, "budget returned: %llu", (unsigned long long)used);
}

static void test_bounded_table_evicts(void)
{
    vc_counter_t c;
    CHECK(vc_counter_init(&c, &alloc, 1024) == 0, "init");
    /* Space-Saving keeps a block counted more often than accesses / slots (here 100000 / 1024). */
    for (int r = 0; r < 500; r++)
        vc_counter_add_range(&c, &alloc, 7 * 4096, 1, 4096);
    for (uint64_t b = 100; b < 100000; b++)
        vc_counter_add_range(&c, &alloc, b * 4096, 1, 4096);
    CHECK(c.cap == 1024, "capped at 1024: %u", c.cap);
    CHECK(c.evictions > 0, "evicts once full");
    /* The hot block survives a flood of cold ones. */
    CHECK(vc_counter_get(&c, 7) >= 500, "hot block kept: %llu", (unsigned long long)vc_counter_get(&c, 7));
    CHECK(vc_counter_add_range(&c, &alloc, 0, 1ULL << 40, 4096) == VC_MAX_BLOCKS_PER_REQUEST, "huge request capped");
    CHECK(c.skipped_blocks == (1ULL << 28) - VC_MAX_BLOCKS_PER_REQUEST, "skipped %llu",
          (unsigned long long)c.skipped_blocks);
    vc_counter_free(&c, &alloc);
}

static void test_allocation_failures(void)
{
    vc_counter_t c;
    fail_allocs_after = 0;
    CHECK(vc_counter_init(&c, &alloc, 1u << 16) == -1, "init fails without memory");
    CHECK(vc_counter_add_range(&c, &alloc, 0, 4096, 4096) == 0, "counting without a table is skipped");
    CHECK(c.skipped_blocks == 1, "skipped");
    fail_allocs_after = 1; /* the table, then no growth */
    CHECK(vc_counter_init(&c, &alloc, 1u << 16) == 0, "init");
    for (uint64_t b = 0; b < 5000; b++)
        vc_counter_add_range(&c, &alloc, b, 1, 1);
    CHECK(c.cap == VC_MIN_SLOTS, "no growth without memory: %u", c.cap);
    vc_bloom_t bl = {0};
    CHECK(vc_bloom_build(&bl, &c, &alloc, 100, 0.01, 1 << 20) == -1, "filter fails without memory");
    CHECK(c.used == 0, "window cleared anyway");
    fail_allocs_after = -1;
    vc_counter_free(&c, &alloc);
    /* The byte budget is a hard limit as well. */
    vc_alloc_t small = {test_calloc, free, &used, 1000};
    CHECK(vc_counter_init(&c, &small, 1u << 16) == -1, "budget below one table");
    CHECK(used == 0, "budget untouched: %llu", (unsigned long long)used);
}

static void test_bloom(double p)
{
    vc_counter_t c;
    CHECK(vc_counter_init(&c, &alloc, 1u << 18) == 0, "init");
    /* 2000 hot blocks read 3 times, 20000 cold blocks once; top 2000 must be exactly the hot ones. */
    for (int r = 0; r < 3; r++)
        for (uint64_t b = 0; b < 2000; b++)
            vc_counter_add_range(&c, &alloc, b * 7919 * 65536, 65536, 65536);
    for (uint64_t b = 1000000; b < 1020000; b++)
        vc_counter_add_range(&c, &alloc, b * 65536, 65536, 65536);
    vc_bloom_t bl = {0};
    bl.block_size = 65536;
    CHECK(vc_bloom_build(&bl, &c, &alloc, 2000, p, 1 << 24) == 0, "build");
    CHECK(bl.n_inserted == 2000, "n=%llu", (unsigned long long)bl.n_inserted);
    int missing = 0;
    for (uint64_t b = 0; b < 2000; b++)
        missing += !vc_bloom_contains(&bl, b * 7919);
    CHECK(missing == 0, "no false negatives: %d", missing);
    int fp = 0;
    for (uint64_t b = 1000000; b < 1020000; b++)
        fp += vc_bloom_contains(&bl, b);
    double rate = fp / 20000.0;
    CHECK(rate < p * 1.5 + 0.002, "fpr %.4f for target %.4f", rate, p);
    CHECK(vc_counter_get(&c, 0) == 0 && c.used == 0, "window cleared");
    /* Serialization: chunk 0 carries the header; all chunks together are the bit array. */
    uint32_t chunks = vc_bloom_chunk_count(&bl);
    size_t total = 0;
    unsigned char *buf = malloc(VC_BLOOM_HEADER_BYTES + VC_BLOOM_CHUNK_BYTES);
    for (uint32_t i = 0; i < chunks; i++) {
        long n = vc_bloom_serialize_chunk(&bl, i, buf, VC_BLOOM_HEADER_BYTES + VC_BLOOM_CHUNK_BYTES);
        CHECK(n > VC_BLOOM_HEADER_BYTES, "chunk %u: %ld", i, n);
        CHECK(memcmp(buf, "VCBF", 4) == 0, "magic");
        CHECK(memcmp(buf + VC_BLOOM_HEADER_BYTES, (unsigned char *)bl.bits + (size_t)i * VC_BLOOM_CHUNK_BYTES,
                     (size_t)(n - VC_BLOOM_HEADER_BYTES)) == 0,
              "chunk %u body", i);
        total += (size_t)(n - VC_BLOOM_HEADER_BYTES);
    }
    CHECK(total == bl.m_bits / 8, "chunks cover the filter: %zu of %llu", total, (unsigned long long)bl.m_bits / 8);
    CHECK(vc_bloom_serialize_chunk(&bl, chunks, buf, 1 << 20) == -1, "chunk past the end");
    CHECK(vc_bloom_serialize_chunk(&bl, 0, buf, 10) == -1, "buffer too small");
    free(buf);
    vc_bloom_free(&bl, &alloc);
    vc_counter_free(&c, &alloc);
}

static void test_bloom_params(void)
{
    uint64_t m;
    uint16_t k;
    vc_bloom_params(262144, 0.01, &m, &k);
    CHECK(m == 2512704 && k == 7, "m=%llu k=%u", (unsigned long long)m, k);
    vc_bloom_params(0, 0.01, &m, &k);
    CHECK(m == 64 && k == 1, "empty");
    vc_bloom_params(10, 0.0, &m, &k);
    CHECK(m == 64 && k == 1, "p=0 refused");
    vc_bloom_params(10, NAN, &m, &k);
    CHECK(m == 64 && k == 1, "p=NaN refused");
}

static void test_filter_limit(void)
{
    vc_counter_t c;
    CHECK(vc_counter_init(&c, &alloc, 1u << 16) == 0, "init");
    for (uint64_t b = 0; b < 10000; b++)
        vc_counter_add_range(&c, &alloc, b, 1, 1);
    vc_bloom_t bl = {0};
    CHECK(vc_bloom_build(&bl, &c, &alloc, 10000, 0.01, 1024) == 0, "build");
    CHECK(bl.m_bits / 8 <= 1024, "filter limited to 1 KiB: %llu", (unsigned long long)bl.m_bits / 8);
    vc_bloom_free(&bl, &alloc);
    vc_counter_free(&c, &alloc);
}

static void test_names(void)
{
    CHECK(vc_parse_bloom_name("trusted.virtcache.bloom") == 0, "base");
    CHECK(vc_parse_bloom_name("trusted.virtcache.bloom.0") == 0, ".0");
    CHECK(vc_parse_bloom_name("trusted.virtcache.bloom.17") == 17, ".17");
    CHECK(vc_parse_bloom_name("trusted.virtcache.bloom.2147483647") == 2147483647L, "max");
    const char *bad[] = {"trusted.virtcache.bloom.", "trusted.virtcache.bloom.01", "trusted.virtcache.bloom.-1",
                         "trusted.virtcache.bloom.2147483648", "trusted.virtcache.bloom.99999999999999999999999",
                         "trusted.virtcache.bloom.1x", "trusted.virtcache.bloomx", "trusted.virtcache.bloom..1",
                         "trusted.virtcache.blo", "", NULL};
    for (int i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++)
        CHECK(vc_parse_bloom_name(bad[i]) == -1, "bad name '%s'", bad[i] ? bad[i] : "(null)");
}

static const vc_det_config_t det_cfg = {.headroom = 0.10,
                                         .parallel_io = 16,
                                         .low_load_queue_depth = 4,
                                         .threshold = 0.05,
                                         .samples_per_window = 30,
                                         .confirm_evaluations = 2};

static int det_window_of(vc_det_t *d, double arrivals, double device_s, double queue_depth)
{
    int evaluated = 0;
    for (int i = 0; i < 30; i++)
        evaluated += vc_det_record(d, &det_cfg, vc_det_utilization(&det_cfg, arrivals, device_s), device_s,
                                   queue_depth);
    return evaluated;
}

static void test_detector(void)
{
    vc_det_t d;
    memset(&d, 0, sizeof(d));
    /* U = 1.1 * 100 / 16 * 0.001 = 0.006875: R = 0.001 / (1 - U). */
    CHECK(fabs(vc_det_utilization(&det_cfg, 100, 0.001) - 0.006875) < 1e-12, "U");
    CHECK(vc_det_utilization(&det_cfg, -1, 0.001) == 0, "negative arrivals count as none");
    CHECK(det_window_of(&d, 100, 0.001, 1) == 1, "one evaluation per 30 samples");
    CHECK(d.state == VC_DET_NORMAL && fabs(d.p90 - 0.001 / (1 - 0.006875)) < 1e-12, "baseline p90 %g", d.p90);
    /* The device slows down 10x under a queue: violation, confirmed by the second window. */
    det_window_of(&d, 100, 0.010, 8);
    CHECK(d.state == VC_DET_NORMAL && d.violations == 1, "one violation is not yet interference");
    det_window_of(&d, 100, 0.010, 8);
    CHECK(d.state == VC_DET_INTERFERED && d.violations == 2, "interfered after two");
    CHECK(d.p90 > 10 * d.low_load_p90 * 0.9, "p90 %g low %g", d.p90, d.low_load_p90);
    /* A short queue while interfered does not become the baseline. */
    det_window_of(&d, 100, 0.010, 1);
    CHECK(d.low_load_p90 < 0.002, "baseline kept: %g", d.low_load_p90);
    /* Back to the low-load service time: normal at the first clean evaluation (the revert rule). */
    det_window_of(&d, 100, 0.001, 1);
    CHECK(d.state == VC_DET_NORMAL && d.violations == 0, "normal again");
    /* Saturation: U >= 1 predicts an unbounded response time. */
    vc_det_record(&d, &det_cfg, 1.5, 0.001, 20);
    CHECK(isinf(d.recent.values[(d.recent.next + 29) % 30]), "U >= 1 is infinite");
    /* A saturated sample seen with a short queue above the device is still not low load: a finite baseline
     * stays, and a window of saturated predictions violates it. */
    vc_det_t s;
    memset(&s, 0, sizeof(s));
    det_window_of(&s, 100, 0.001, 1);
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < 30; i++)
            vc_det_record(&s, &det_cfg, 1.2, 0.001, 1);
    CHECK(isfinite(s.low_load_p90) && s.low_load_p90 < 0.002, "saturated baseline: %g", s.low_load_p90);
    CHECK(s.state == VC_DET_INTERFERED, "saturation is interference");
    vc_ring_t empty = {0};
    CHECK(vc_ring_p90(&empty) == 0, "empty ring");
    CHECK(strcmp(vc_det_state_name(VC_DET_INTERFERED), "interfered") == 0, "name");
}

/* A table and filter saved and restored: the same counts, blocks and filter; every truncation and every flipped byte
 * of the record refused, reading nothing past the bytes given (AddressSanitizer checks that). */
static void test_state_roundtrip(void)
{
    vc_counter_t c;
    vc_bloom_t b = {0};
    CHECK(vc_counter_init(&c, &alloc, 4096) == 0, "init");
    for (int i = 0; i < 5; i++)
        vc_counter_add_range(&c, &alloc, 3 * 65536, 10, 65536);
    vc_counter_add_range(&c, &alloc, 7 * 65536, 10, 65536);
    b.block_size = 65536;
    b.epoch = 4;
    b.window_start_ms = 123456789;
    b.window_len_ms = 600000;
    CHECK(vc_bloom_build(&b, &c, &alloc, 10, 0.01, 1 << 20) == 0, "filter");
    for (int i = 0; i < 4; i++)
        vc_counter_add_range(&c, &alloc, 3 * 65536, 10, 65536);
    vc_counter_add_range(&c, &alloc, 9 * 65536, 65536 * 2, 65536);
    c.evictions = 2;
    c.skipped_blocks = 1;
    vc_file_counts_t f = {.block_size = 65536, .epoch = 4, .window_start_real_ms = 987654321, .reads = 12,
                          .writes = 1, .read_bytes = 1000, .write_bytes = 10, .window_reads = 6, .window_writes = 1};
    for (int i = 0; i < 16; i++)
        f.gfid[i] = (unsigned char)(0xa0 + i);

    size_t n = vc_state_record_bytes(&c, &b);
    unsigned char *rec = malloc(n);
    CHECK(vc_state_put_record(rec, &f, &c, &b) == n, "record size");
    const char *why = NULL;
    CHECK(vc_state_check_record(rec, n, &why) == (long)n, "valid record refused: %s", why);
    CHECK(memcmp(vc_state_record_gfid(rec), f.gfid, 16) == 0, "gfid");

    vc_counter_t rc;
    vc_bloom_t rb;
    vc_file_counts_t rf;
    CHECK(vc_counter_init(&rc, &alloc, 4096) == 0, "init");
    CHECK(vc_state_restore(rec, &rf, &rc, &rb, &alloc) == 0, "restore");
    CHECK(memcmp(rf.gfid, f.gfid, 16) == 0 && rf.block_size == f.block_size && rf.epoch == f.epoch &&
              rf.window_start_real_ms == f.window_start_real_ms && rf.reads == f.reads && rf.writes == f.writes &&
              rf.read_bytes == f.read_bytes && rf.write_bytes == f.write_bytes && rf.window_reads == f.window_reads &&
              rf.window_writes == f.window_writes,
          "counts");
    CHECK(vc_counter_get(&rc, 3) == 4 && vc_counter_get(&rc, 9) == 1 && vc_counter_get(&rc, 10) == 1 &&
              vc_counter_get(&rc, 7) == 0 && rc.used == 3,
          "blocks: 3:%llu 9:%llu used %u", (unsigned long long)vc_counter_get(&rc, 3),
          (unsigned long long)vc_counter_get(&rc, 9), rc.used);
    CHECK(rc.evictions == 2 && rc.skipped_blocks == 1, "evictions %llu skipped %llu",
          (unsigned long long)rc.evictions, (unsigned long long)rc.skipped_blocks);
    CHECK(rb.bits && rb.m_bits == b.m_bits && rb.k == b.k && rb.n_inserted == 2 && rb.epoch == 4 &&
              rb.crc32c == b.crc32c && memcmp(rb.bits, b.bits, b.m_bits / 8) == 0,
          "filter");
    CHECK(vc_bloom_contains(&rb, 3) && vc_bloom_contains(&rb, 7), "hot blocks in the restored filter");

    for (size_t len = 0; len < n; len++) {
        unsigned char *cut = malloc(len ? len : 1);
        memcpy(cut, rec, len);
        CHECK(vc_state_check_record(cut, len, &why) == -1, "truncated to %zu accepted", len);
        free(cut);
    }
    for (size_t at = 0; at < n; at++) {
        rec[at] ^= 0x10;
        CHECK(vc_state_check_record(rec, n, &why) == -1, "byte %zu flipped accepted", at);
        rec[at] ^= 0x10;
    }

    /* No memory for the filter: the counts come back without it. */
    vc_counter_t nc;
    vc_bloom_t nb;
    CHECK(vc_counter_init(&nc, &alloc, 4096) == 0, "init");
    fail_allocs_after = 0;
    CHECK(vc_state_restore(rec, &rf, &nc, &nb, &alloc) == -1 && nb.bits == NULL, "no memory for the filter");
    fail_allocs_after = -1;
    CHECK(vc_counter_get(&nc, 3) == 4 && rf.reads == 12, "counts without the filter");

    unsigned char h[VC_STATE_HEADER_BYTES];
    vc_state_put_header(h, 7);
    CHECK(vc_state_check_header(h, sizeof(h), &why) == 7, "header: %s", why);
    CHECK(vc_state_check_header(h, sizeof(h) - 1, &why) == -1, "short header");
    for (size_t at = 0; at < sizeof(h); at++) {
        h[at] ^= 1;
        CHECK(vc_state_check_header(h, sizeof(h), &why) == -1, "header byte %zu flipped accepted", at);
        h[at] ^= 1;
    }

    /* A file without a filter or counted blocks. */
    vc_counter_t ec;
    vc_bloom_t eb = {0};
    CHECK(vc_counter_init(&ec, &alloc, 4096) == 0, "init");
    size_t en = vc_state_record_bytes(&ec, &eb);
    unsigned char *erec = malloc(en);
    vc_state_put_record(erec, &f, &ec, &eb);
    CHECK(vc_state_check_record(erec, en, &why) == (long)en, "empty record: %s", why);

    free(erec);
    free(rec);
    vc_counter_free(&ec, &alloc);
    vc_counter_free(&nc, &alloc);
    vc_counter_free(&rc, &alloc);
    vc_bloom_free(&rb, &alloc);
    vc_counter_free(&c, &alloc);
    vc_bloom_free(&b, &alloc);
}

/* The hottest blocks as the stats xattr and the statedump list them: exact text, and nothing partial when short. */
static void test_format_top(void)
{
    vc_counter_t c;
    vc_slot_t top[VC_TOP_LIST] = {{0, 0}};
    char buf[64];
    uint32_t n;

    CHECK(vc_format_top(top, 0, buf, sizeof(buf)) == 0 && buf[0] == '\0', "empty list: \"%s\"", buf);
    CHECK(vc_counter_init(&c, &alloc, VC_MIN_SLOTS) == 0, "init");
    for (int i = 0; i < 5; i++)
        vc_counter_add_range(&c, &alloc, 3 * 65536 + 100, 10, 65536);
    vc_counter_add_range(&c, &alloc, 20 * 65536 + 32768, 131072, 65536);
    vc_counter_add_range(&c, &alloc, 20 * 65536 + 32768, 131072, 65536);
    vc_counter_add_range(&c, &alloc, 10 * 65536, 4096, 65536);
    n = vc_counter_top(&c, top, VC_TOP_LIST);
    CHECK(n == 5, "distinct blocks: %u", n);
    CHECK(vc_format_top(top, n, buf, sizeof(buf)) == (int)strlen("3:5,20:2,21:2,22:2,10:1"), "length of \"%s\"", buf);
    CHECK(strcmp(buf, "3:5,20:2,21:2,22:2,10:1") == 0, "hottest first, then by block: \"%s\"", buf);
    /* One byte short of the text and its NUL. */
    CHECK(vc_format_top(top, n, buf, strlen("3:5,20:2,21:2,22:2,10:1")) == -1 && buf[0] == '\0', "too short: \"%s\"",
          buf);
    top[0].block = UINT64_MAX;
    top[0].count = UINT64_MAX;
    CHECK(vc_format_top(top, 1, buf, sizeof(buf)) == 41 &&
              strcmp(buf, "18446744073709551615:18446744073709551615") == 0,
          "widest entry: \"%s\"", buf);
    vc_counter_free(&c, &alloc);
}

int main(void)
{
    test_murmur_vectors();
    test_crc32c();
    test_counts_equal_accesses();
    test_bounded_table_evicts();
    test_allocation_failures();
    test_bloom(0.01);
    test_bloom(0.30);
    test_bloom_params();
    test_filter_limit();
    test_names();
    test_detector();
    test_state_roundtrip();
    test_format_top();
    if (failures) {
        fprintf(stderr, "vc_core_test: %d failure(s)\n", failures);
        return 1;
    }
    printf("vc_core_test: all checks passed\n");
    return 0;
}
