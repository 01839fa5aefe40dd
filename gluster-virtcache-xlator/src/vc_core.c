/* VirtCache core: see vc_core.h. */
#include "vc_core.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the filter wire format is the memory image of little-endian words"
#endif

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t fmix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

/* MurmurHash3 x64/128 of the 8 little-endian bytes of key: only the tail step runs, as the key is shorter than one
 * 16-byte block. */
void vc_murmur3_x64_128_u64(uint64_t key, uint32_t seed, uint64_t *out1, uint64_t *out2)
{
    const uint64_t c1 = 0x87c37b91114253d5ULL;
    const uint64_t c2 = 0x4cf5ad432745937fULL;
    uint64_t h1 = seed, h2 = seed;
    uint64_t k1 = key;
    k1 *= c1;
    k1 = rotl64(k1, 31);
    k1 *= c2;
    h1 ^= k1;
    h1 ^= 8;
    h2 ^= 8;
    h1 += h2;
    h2 += h1;
    h1 = fmix64(h1);
    h2 = fmix64(h2);
    h1 += h2;
    h2 += h1;
    *out1 = h1;
    *out2 = h2;
}

uint32_t vc_crc32c(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int b = 0; b < 8; b++)
            crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
    }
    return ~crc;
}

uint32_t vc_next_pow2(uint64_t v, uint32_t cap)
{
    uint64_t p = 1;
    while (p < v && p < cap)
        p <<= 1;
    return (uint32_t)(p > cap ? cap : p);
}

static int budget_take(const vc_alloc_t *a, uint64_t bytes)
{
    uint64_t after = __atomic_add_fetch(a->budget_used, bytes, __ATOMIC_RELAXED);
    if (after > __atomic_load_n(&a->budget_limit, __ATOMIC_RELAXED)) {
        __atomic_sub_fetch(a->budget_used, bytes, __ATOMIC_RELAXED);
        return -1;
    }
    return 0;
}

static void budget_give(const vc_alloc_t *a, uint64_t bytes)
{
    __atomic_sub_fetch(a->budget_used, bytes, __ATOMIC_RELAXED);
}

static vc_slot_t *slots_alloc(const vc_alloc_t *a, uint32_t cap)
{
    uint64_t bytes = (uint64_t)cap * sizeof(vc_slot_t);
    if (budget_take(a, bytes) != 0)
        return NULL;
    vc_slot_t *s = a->calloc_fn(cap, sizeof(vc_slot_t));
    if (!s)
        budget_give(a, bytes);
    return s;
}

static void slots_free(const vc_alloc_t *a, vc_slot_t *s, uint32_t cap)
{
    if (!s)
        return;
    a->free_fn(s);
    budget_give(a, (uint64_t)cap * sizeof(vc_slot_t));
}

int vc_counter_init(vc_counter_t *c, const vc_alloc_t *a, uint32_t max_slots)
{
    memset(c, 0, sizeof(*c));
    c->max_slots = vc_next_pow2(max_slots < VC_MIN_SLOTS ? VC_MIN_SLOTS : max_slots, 1u << 30);
    uint32_t cap = VC_MIN_SLOTS;
    c->slots = slots_alloc(a, cap);
    if (!c->slots)
        return -1;
    c->cap = cap;
    return 0;
}

void vc_counter_free(vc_counter_t *c, const vc_alloc_t *a)
{
    slots_free(a, c->slots, c->cap);
    c->slots = NULL;
    c->cap = 0;
    c->used = 0;
}

/* Puts (block, count) into a free slot of its probe window; -1 if the window is full. */
static int place_free(vc_slot_t *s, uint32_t cap, uint64_t block, uint64_t count, uint32_t *used)
{
    uint32_t mask = cap - 1;
    uint32_t home = (uint32_t)(fmix64(block) & mask);
    for (uint32_t i = 0; i < VC_PROBE_LIMIT && i < cap; i++) {
        uint32_t at = (home + i) & mask;
        if (s[at].count == 0) {
            s[at].block = block;
            s[at].count = count;
            (*used)++;
            return 0;
        }
    }
    return -1;
}

/* Replaces the least counted block of the probe window; the newcomer inherits its count (Space-Saving). */
static void place_evict(vc_slot_t *s, uint32_t cap, uint64_t block, uint64_t count, uint64_t *evictions)
{
    uint32_t mask = cap - 1;
    uint32_t home = (uint32_t)(fmix64(block) & mask);
    uint32_t victim = home;
    for (uint32_t i = 1; i < VC_PROBE_LIMIT && i < cap; i++) {
        uint32_t at = (home + i) & mask;
        if (s[at].count < s[victim].count)
            victim = at;
    }
    (*evictions)++;
    s[victim].block = block;
    s[victim].count += count;
}

static int grow(vc_counter_t *c, const vc_alloc_t *a)
{
    if (c->cap >= c->max_slots)
        return -1;
    uint32_t ncap = c->cap * 2;
    vc_slot_t *ns = slots_alloc(a, ncap);
    if (!ns)
        return -1;
    uint32_t used = 0;
    for (uint32_t i = 0; i < c->cap; i++)
        if (c->slots[i].count && place_free(ns, ncap, c->slots[i].block, c->slots[i].count, &used) != 0)
            place_evict(ns, ncap, c->slots[i].block, c->slots[i].count, &c->evictions);
    slots_free(a, c->slots, c->cap);
    c->slots = ns;
    c->cap = ncap;
    c->used = used;
    return 0;
}

static void add_count(vc_counter_t *c, const vc_alloc_t *a, uint64_t block, uint64_t count)
{
    uint32_t mask = c->cap - 1;
    uint32_t home = (uint32_t)(fmix64(block) & mask);
    for (uint32_t i = 0; i < VC_PROBE_LIMIT && i < c->cap; i++) {
        vc_slot_t *s = &c->slots[(home + i) & mask];
        if (s->count == 0)
            break;
        if (s->block == block) {
            s->count += count;
            return;
        }
    }
    /* A new block: keep the table at most half full while it may still grow, and grow rather than evict. */
    if ((uint64_t)(c->used + 1) * 2 > c->cap)
        (void)grow(c, a);
    while (place_free(c->slots, c->cap, block, count, &c->used) != 0) {
        if (grow(c, a) != 0) {
            place_evict(c->slots, c->cap, block, count, &c->evictions);
            return;
        }
    }
}

uint32_t vc_counter_add_range(vc_counter_t *c, const vc_alloc_t *a, uint64_t offset, uint64_t len,
                              uint32_t block_size)
{
    if (len == 0 || block_size == 0)
        return 0;
    uint64_t first = offset / block_size;
    uint64_t last = (offset + len - 1 < offset ? UINT64_MAX : offset + len - 1) / block_size;
    uint64_t blocks = last - first + 1;
    if (!c->slots) {
        c->skipped_blocks += blocks;
        return 0;
    }
    uint32_t counted = 0;
    for (uint64_t b = first; b <= last && counted < VC_MAX_BLOCKS_PER_REQUEST; b++, counted++)
        add_count(c, a, b, 1);
    c->skipped_blocks += blocks - counted;
    return counted;
}

uint64_t vc_counter_get(const vc_counter_t *c, uint64_t block)
{
    if (!c->slots)
        return 0;
    uint32_t mask = c->cap - 1;
    uint32_t home = (uint32_t)(fmix64(block) & mask);
    for (uint32_t i = 0; i < VC_PROBE_LIMIT && i < c->cap; i++) {
        const vc_slot_t *s = &c->slots[(home + i) & mask];
        if (s->count == 0)
            return 0;
        if (s->block == block)
            return s->count;
    }
    return 0;
}

/* Hotter first; equal counts by lower block id, so the order is reproducible. */
static int hotter(const vc_slot_t *x, const vc_slot_t *y)
{
    if (x->count != y->count)
        return x->count > y->count;
    return x->block < y->block;
}

static int cmp_hot(const void *x, const void *y)
{
    const vc_slot_t *a = x, *b = y;
    if (hotter(a, b))
        return -1;
    if (hotter(b, a))
        return 1;
    return 0;
}

uint32_t vc_counter_top(const vc_counter_t *c, vc_slot_t *out, uint32_t n)
{
    uint32_t have = 0;
    if (!c->slots || n == 0)
        return 0;
    for (uint32_t i = 0; i < c->cap; i++) {
        const vc_slot_t *s = &c->slots[i];
        if (s->count == 0)
            continue;
        if (have == n && !hotter(s, &out[n - 1]))
            continue;
        uint32_t at = have < n ? have++ : n - 1;
        while (at > 0 && hotter(s, &out[at - 1])) {
            out[at] = out[at - 1];
            at--;
        }
        out[at] = *s;
    }
    return have;
}

int vc_format_top(const vc_slot_t *top, uint32_t n, char *buf, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return -1;
    buf[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
        int w = snprintf(buf + len, cap - len, "%s%" PRIu64 ":%" PRIu64, i ? "," : "", top[i].block, top[i].count);
        if (w < 0 || (size_t)w >= cap - len) {
            buf[0] = '\0';
            return -1;
        }
        len += (size_t)w;
    }
    return (int)len;
}

void vc_counter_reset(vc_counter_t *c)
{
    if (c->slots)
        memset(c->slots, 0, (size_t)c->cap * sizeof(vc_slot_t));
    c->used = 0;
    c->evictions = 0;
    c->skipped_blocks = 0;
}

void vc_bloom_params(uint64_t n, double p, uint64_t *m_bits, uint16_t *k)
{
    if (n == 0 || !(p > 0.0) || !(p < 1.0)) {
        *m_bits = 64;
        *k = 1;
        return;
    }
    double ln2 = log(2.0);
    double m = ceil(-(double)n * log(p) / (ln2 * ln2));
    uint64_t mb = (uint64_t)m;
    mb = (mb + 63) / 64 * 64;
    if (mb < 64)
        mb = 64;
    double kk = floor((double)mb / (double)n * ln2 + 0.5);
    if (kk < 1)
        kk = 1;
    if (kk > VC_BLOOM_MAX_K)
        kk = VC_BLOOM_MAX_K;
    *m_bits = mb;
    *k = (uint16_t)kk;
}

void vc_bloom_add(vc_bloom_t *b, uint64_t block)
{
    uint64_t h1, h2;
    vc_murmur3_x64_128_u64(block, VC_BLOOM_SEED, &h1, &h2);
    for (uint32_t i = 0; i < b->k; i++) {
        uint64_t bit = (h1 + (uint64_t)i * h2) % b->m_bits;
        b->bits[bit >> 6] |= 1ULL << (bit & 63);
    }
}

int vc_bloom_contains(const vc_bloom_t *b, uint64_t block)
{
    if (!b->bits)
        return 0;
    uint64_t h1, h2;
    vc_murmur3_x64_128_u64(block, VC_BLOOM_SEED, &h1, &h2);
    for (uint32_t i = 0; i < b->k; i++) {
        uint64_t bit = (h1 + (uint64_t)i * h2) % b->m_bits;
        if (!(b->bits[bit >> 6] & (1ULL << (bit & 63))))
            return 0;
    }
    return 1;
}

void vc_bloom_free(vc_bloom_t *b, const vc_alloc_t *a)
{
    if (b->bits) {
        a->free_fn(b->bits);
        budget_give(a, b->m_bits / 8);
    }
    b->bits = NULL;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

int vc_bloom_build(vc_bloom_t *b, vc_counter_t *c, const vc_alloc_t *a, uint64_t top_n, double fpr,
                   uint64_t max_filter_bytes)
{
    /* Compact the occupied slots to the front and sort them hottest first; the table is cleared afterwards anyway. */
    uint32_t n = 0;
    if (c->slots) {
        for (uint32_t i = 0; i < c->cap; i++)
            if (c->slots[i].count)
                c->slots[n++] = c->slots[i];
        qsort(c->slots, n, sizeof(vc_slot_t), cmp_hot);
    }
    uint64_t take = top_n < n ? top_n : n;
    uint64_t m;
    uint16_t k;
    vc_bloom_params(take, fpr, &m, &k);
    /* Too large for the limit: keep the hottest blocks that fit at this rate. */
    while (m / 8 > max_filter_bytes && take > 0) {
        take = take / 2;
        vc_bloom_params(take, fpr, &m, &k);
    }
    uint64_t *bits = NULL;
    if (budget_take(a, m / 8) == 0) {
        bits = a->calloc_fn(m / 64, sizeof(uint64_t));
        if (!bits)
            budget_give(a, m / 8);
    }
    int ret = -1;
    if (bits) {
        b->bits = bits;
        b->m_bits = m;
        b->k = k;
        b->n_inserted = take;
        for (uint64_t i = 0; i < take; i++)
            vc_bloom_add(b, c->slots[i].block);
        b->crc32c = vc_crc32c(bits, m / 8);
        ret = 0;
    }
    if (c->slots)
        memset(c->slots, 0, (size_t)c->cap * sizeof(vc_slot_t));
    c->used = 0;
    c->evictions = 0;
    c->skipped_blocks = 0;
    return ret;
}

uint32_t vc_bloom_chunk_count(const vc_bloom_t *b)
{
    uint64_t body = b->m_bits / 8;
    uint64_t chunks = (body + VC_BLOOM_CHUNK_BYTES - 1) / VC_BLOOM_CHUNK_BYTES;
    return (uint32_t)(chunks == 0 ? 1 : chunks);
}

size_t vc_bloom_chunk_bytes(const vc_bloom_t *b, uint32_t chunk)
{
    uint64_t body = b->m_bits / 8;
    uint64_t start = (uint64_t)chunk * VC_BLOOM_CHUNK_BYTES;
    if (chunk >= vc_bloom_chunk_count(b) || start > body)
        return 0;
    uint64_t len = body - start;
    return (size_t)(len > VC_BLOOM_CHUNK_BYTES ? VC_BLOOM_CHUNK_BYTES : len);
}

long vc_bloom_serialize_chunk(const vc_bloom_t *b, uint32_t chunk, unsigned char *out, size_t out_len)
{
    if (!b->bits || chunk >= vc_bloom_chunk_count(b))
        return -1;
    size_t body = vc_bloom_chunk_bytes(b, chunk);
    if (out_len < VC_BLOOM_HEADER_BYTES + body)
        return -1;
    memset(out, 0, VC_BLOOM_HEADER_BYTES);
    memcpy(out, VC_BLOOM_MAGIC, 4);
    put_le(out + 4, VC_BLOOM_VERSION, 2);
    put_le(out + 6, b->k, 2);
    put_le(out + 8, b->m_bits, 8);
    put_le(out + 16, b->n_inserted, 8);
    put_le(out + 24, b->block_size, 4);
    put_le(out + 28, chunk, 4);
    put_le(out + 32, b->epoch, 8);
    put_le(out + 40, b->window_start_ms, 8);
    put_le(out + 48, b->window_len_ms, 4);
    put_le(out + 52, vc_bloom_chunk_count(b), 4);
    put_le(out + 56, b->crc32c, 4);
    put_le(out + 60, body, 4);
    /* The bit array is little-endian u64 words; on this little-endian host that is its memory image. */
    memcpy(out + VC_BLOOM_HEADER_BYTES, (const unsigned char *)b->bits + (size_t)chunk * VC_BLOOM_CHUNK_BYTES, body);
    return (long)(VC_BLOOM_HEADER_BYTES + body);
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* Offsets in a state record's body (see vc_core.h). */
#define ST_GFID 0
#define ST_BLOCK_SIZE 16
#define ST_SLOTS 20
#define ST_EPOCH 24
#define ST_WINDOW_START 32
#define ST_COUNTS 40 /* reads, writes, read_bytes, write_bytes, window_reads, window_writes, evictions, skipped */
#define ST_BLOOM_K 104
#define ST_BLOOM_BLOCK_SIZE 108
#define ST_BLOOM_M_BITS 112
#define ST_BLOOM_N 120
#define ST_BLOOM_EPOCH 128
#define ST_BLOOM_WINDOW_START 136
#define ST_BLOOM_WINDOW_LEN 144
#define ST_BLOOM_CRC 148
#define ST_FIXED 152

static uint32_t occupied(const vc_counter_t *c)
{
    uint32_t n = 0;
    for (uint32_t i = 0; c->slots && i < c->cap; i++)
        n += c->slots[i].count != 0;
    return n;
}

size_t vc_state_record_bytes(const vc_counter_t *c, const vc_bloom_t *b)
{
    return 4 + ST_FIXED + (size_t)occupied(c) * 16 + (b->bits ? (size_t)(b->m_bits / 8) : 0) + 4;
}

size_t vc_state_put_record(unsigned char *out, const vc_file_counts_t *f, const vc_counter_t *c, const vc_bloom_t *b)
{
    unsigned char *body = out + 4;
    uint32_t slots = 0;
    size_t at = ST_FIXED;
    const uint64_t counts[8] = {f->reads,        f->writes,        f->read_bytes,  f->write_bytes,
                                f->window_reads, f->window_writes, c->evictions,   c->skipped_blocks};

    memset(body, 0, ST_FIXED);
    memcpy(body + ST_GFID, f->gfid, 16);
    put_le(body + ST_BLOCK_SIZE, f->block_size, 4);
    put_le(body + ST_EPOCH, f->epoch, 8);
    put_le(body + ST_WINDOW_START, f->window_start_real_ms, 8);
    for (int i = 0; i < 8; i++)
        put_le(body + ST_COUNTS + 8 * i, counts[i], 8);
    for (uint32_t i = 0; c->slots && i < c->cap; i++) {
        if (c->slots[i].count) {
            put_le(body + at, c->slots[i].block, 8);
            put_le(body + at + 8, c->slots[i].count, 8);
            at += 16;
            slots++;
        }
    }
    put_le(body + ST_SLOTS, slots, 4);
    if (b->bits) {
        put_le(body + ST_BLOOM_K, b->k, 2);
        put_le(body + ST_BLOOM_BLOCK_SIZE, b->block_size, 4);
        put_le(body + ST_BLOOM_M_BITS, b->m_bits, 8);
        put_le(body + ST_BLOOM_N, b->n_inserted, 8);
        put_le(body + ST_BLOOM_EPOCH, b->epoch, 8);
        put_le(body + ST_BLOOM_WINDOW_START, b->window_start_ms, 8);
        put_le(body + ST_BLOOM_WINDOW_LEN, b->window_len_ms, 4);
        put_le(body + ST_BLOOM_CRC, b->crc32c, 4);
        /* Little-endian u64 words: the memory image on this host. */
        memcpy(body + at, b->bits, (size_t)(b->m_bits / 8));
        at += (size_t)(b->m_bits / 8);
    }
    put_le(out, at, 4);
    put_le(body + at, vc_crc32c(body, at), 4);
    return 4 + at + 4;
}

void vc_state_put_header(unsigned char *out, uint32_t records)
{
    memcpy(out, VC_STATE_MAGIC, 4);
    put_le(out + 4, VC_STATE_VERSION, 4);
    put_le(out + 8, records, 4);
    put_le(out + 12, vc_crc32c(out, 12), 4);
}

long vc_state_check_header(const unsigned char *in, size_t len, const char **why)
{
    if (len < VC_STATE_HEADER_BYTES) {
        *why = "shorter than its header";
        return -1;
    }
    if (memcmp(in, VC_STATE_MAGIC, 4) != 0) {
        *why = "no VCST magic";
        return -1;
    }
    if (get_le(in + 12, 4) != vc_crc32c(in, 12)) {
        *why = "header checksum mismatch";
        return -1;
    }
    if (get_le(in + 4, 4) != VC_STATE_VERSION) {
        *why = "unknown version";
        return -1;
    }
    return (long)get_le(in + 8, 4);
}

long vc_state_check_record(const unsigned char *in, size_t len, const char **why)
{
    if (len < 4 + ST_FIXED + 4) {
        *why = "truncated record";
        return -1;
    }
    uint64_t body_len = get_le(in, 4);
    if (body_len < ST_FIXED || body_len > len - 8) {
        *why = "truncated record";
        return -1;
    }
    const unsigned char *body = in + 4;
    if (get_le(body + body_len, 4) != vc_crc32c(body, (size_t)body_len)) {
        *why = "record checksum mismatch";
        return -1;
    }
    uint64_t slots = get_le(body + ST_SLOTS, 4);
    uint64_t k = get_le(body + ST_BLOOM_K, 2);
    uint64_t m_bits = get_le(body + ST_BLOOM_M_BITS, 8);
    uint64_t bloom_bytes = k ? m_bits / 8 : 0;
    if (get_le(body + ST_BLOCK_SIZE, 4) == 0 || k > VC_BLOOM_MAX_K || (k && (m_bits == 0 || m_bits % 64 != 0)) ||
        (!k && m_bits != 0) || bloom_bytes > body_len || slots > (body_len - ST_FIXED) / 16 ||
        ST_FIXED + slots * 16 + bloom_bytes != body_len) {
        *why = "inconsistent record fields";
        return -1;
    }
    for (uint64_t i = 0; i < slots; i++) {
        if (get_le(body + ST_FIXED + 16 * i + 8, 8) == 0) {
            *why = "a block with count 0";
            return -1;
        }
    }
    if (k && get_le(body + ST_BLOOM_CRC, 4) != vc_crc32c(body + ST_FIXED + slots * 16, (size_t)bloom_bytes)) {
        *why = "filter checksum mismatch";
        return -1;
    }
    return (long)(body_len + 8);
}

const unsigned char *vc_state_record_gfid(const unsigned char *rec) { return rec + 4 + ST_GFID; }

int vc_state_restore(const unsigned char *rec, vc_file_counts_t *f, vc_counter_t *c, vc_bloom_t *b,
                     const vc_alloc_t *a)
{
    const unsigned char *body = rec + 4;
    uint64_t counts[8];
    uint32_t slots = (uint32_t)get_le(body + ST_SLOTS, 4);

    memcpy(f->gfid, body + ST_GFID, 16);
    f->block_size = (uint32_t)get_le(body + ST_BLOCK_SIZE, 4);
    f->epoch = get_le(body + ST_EPOCH, 8);
    f->window_start_real_ms = get_le(body + ST_WINDOW_START, 8);
    for (int i = 0; i < 8; i++)
        counts[i] = get_le(body + ST_COUNTS + 8 * i, 8);
    f->reads = counts[0];
    f->writes = counts[1];
    f->read_bytes = counts[2];
    f->write_bytes = counts[3];
    f->window_reads = counts[4];
    f->window_writes = counts[5];
    for (uint32_t i = 0; i < slots; i++) {
        uint64_t block = get_le(body + ST_FIXED + 16 * (size_t)i, 8);
        uint64_t count = get_le(body + ST_FIXED + 16 * (size_t)i + 8, 8);
        if (c->slots)
            add_count(c, a, block, count);
        else
            c->skipped_blocks++;
    }
    c->evictions += counts[6];
    c->skipped_blocks += counts[7];

    memset(b, 0, sizeof(*b));
    uint16_t k = (uint16_t)get_le(body + ST_BLOOM_K, 2);
    if (!k)
        return 0;
    uint64_t m = get_le(body + ST_BLOOM_M_BITS, 8);
    if (budget_take(a, m / 8) != 0)
        return -1;
    b->bits = a->calloc_fn(m / 64, sizeof(uint64_t));
    if (!b->bits) {
        budget_give(a, m / 8);
        return -1;
    }
    memcpy(b->bits, body + ST_FIXED + 16 * (size_t)slots, (size_t)(m / 8));
    b->k = k;
    b->m_bits = m;
    b->block_size = (uint32_t)get_le(body + ST_BLOOM_BLOCK_SIZE, 4);
    b->n_inserted = get_le(body + ST_BLOOM_N, 8);
    b->epoch = get_le(body + ST_BLOOM_EPOCH, 8);
    b->window_start_ms = get_le(body + ST_BLOOM_WINDOW_START, 8);
    b->window_len_ms = (uint32_t)get_le(body + ST_BLOOM_WINDOW_LEN, 4);
    b->crc32c = (uint32_t)get_le(body + ST_BLOOM_CRC, 4);
    return 0;
}

long vc_parse_bloom_name(const char *name)
{
    static const char base[] = "trusted.virtcache.bloom";
    size_t bl = sizeof(base) - 1;
    if (!name || strncmp(name, base, bl) != 0)
        return -1;
    const char *p = name + bl;
    if (*p == '\0')
        return 0;
    if (*p != '.')
        return -1;
    p++;
    if (*p < '0' || *p > '9' || (*p == '0' && p[1] != '\0'))
        return -1;
    long v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
        if (v > 0x7fffffffL)
            return -1;
    }
    return v;
}

static uint32_t det_window(const vc_det_config_t *c)
{
    uint32_t n = c->samples_per_window;
    return n < 1 ? 1 : n > VC_DET_MAX_SAMPLES ? VC_DET_MAX_SAMPLES : n;
}

static void ring_add(vc_ring_t *r, uint32_t cap, double v)
{
    if (r->next >= cap)
        r->next = 0;
    r->values[r->next] = v;
    r->next = (r->next + 1) % cap;
    if (r->size < cap)
        r->size++;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b ? 1 : 0;
}

double vc_ring_p90(const vc_ring_t *r)
{
    double sorted[VC_DET_MAX_SAMPLES];
    if (r->size == 0)
        return 0;
    memcpy(sorted, r->values, r->size * sizeof(double));
    qsort(sorted, r->size, sizeof(double), cmp_double);
    uint32_t rank = (uint32_t)ceil(0.9 * r->size);
    return sorted[rank > 0 ? rank - 1 : 0];
}

double vc_det_utilization(const vc_det_config_t *c, double arrivals_per_s, double device_s)
{
    if (!(arrivals_per_s > 0) || !(device_s > 0))
        return 0;
    return (1 + c->headroom) * arrivals_per_s / (c->parallel_io ? c->parallel_io : 1) * device_s;
}

int vc_det_record(vc_det_t *d, const vc_det_config_t *c, double u, double device_s, double queue_depth)
{
    uint32_t cap = det_window(c);
    double r = u < 1 ? device_s / (1 - u) : INFINITY;
    ring_add(&d->recent, cap, r);
    /* While the file is redirected its queue is short because of the redirection: not a baseline to judge it by. A
     * saturated device (U >= 1) is never low load, whatever queue depth was seen above it. */
    if (queue_depth < c->low_load_queue_depth && u < 1 && d->state == VC_DET_NORMAL)
        ring_add(&d->low_load, cap, r);
    if (++d->since_evaluation < cap)
        return 0;
    d->since_evaluation = 0;
    d->evaluations++;
    if (d->low_load.size == 0) {
        d->violations = 0;
        d->state = VC_DET_NORMAL;
        return 1;
    }
    d->p90 = vc_ring_p90(&d->recent);
    d->low_load_p90 = vc_ring_p90(&d->low_load);
    int violating = d->p90 - d->low_load_p90 > c->threshold * d->low_load_p90;
    d->violations = violating ? d->violations + 1 : 0;
    d->state = d->violations >= (c->confirm_evaluations ? c->confirm_evaluations : 1) ? VC_DET_INTERFERED
                                                                                       : VC_DET_NORMAL;
    return 1;
}

const char *vc_det_state_name(vc_det_state_t s) { return s == VC_DET_INTERFERED ? "interfered" : "normal"; }
