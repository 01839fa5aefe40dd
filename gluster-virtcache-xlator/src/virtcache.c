/*
 * virtcache: a GlusterFS brick translator that counts block accesses of every regular file per time window, builds
 * a Bloom filter of each file's top-N blocks at the end of a window, and serves both to clients as virtual extended
 * attributes (never stored on the brick):
 *
 *   trusted.virtcache.stats        text, key=value lines: counters of the file and the current window's hottest blocks
 *   trusted.virtcache.state        text: the interference detector's verdict on the file (normal or interfered)
 *   trusted.virtcache.bloom[.<i>]  binary: 64-byte header + chunk i of the last window's filter (see vc_core.h)
 *
 * Setting trusted.virtcache.rotate ends the file's current window at once; every other trusted.virtcache.* name is
 * refused with EPERM on set and remove, and answered with ENODATA on get, so clients cannot plant values the
 * translator would appear to serve.
 *
 * The translator must never take the brick down: memory is bounded by memory-limit (all counters and filters
 * together) and max-files, each allocation is checked, and when memory is short it counts less, never fails a fop.
 *
 * Counts and filters survive a brick restart: every state-interval seconds a thread of the translator writes them to
 * <brick>/.glusterfs/virtcache.state (record format in vc_core.h; a new file renamed over the old, so a crash leaves
 * one whole file or the other), and at fini once more. The brick reads the file at init; a file it cannot use is set
 * aside as virtcache.state.bad, logged, and counting starts afresh. A saved file's counts come back when the file is
 * first used again, found by its gfid; the detector's samples are not saved, as they describe the load before.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glusterfs/common-utils.h>
#include <glusterfs/defaults.h>
#include <glusterfs/dict.h>
#include <glusterfs/logging.h>
#include <glusterfs/statedump.h>
#include <glusterfs/xlator.h>

#include "vc_core.h"

#define VC_PREFIX "trusted.virtcache."
#define VC_ROTATE VC_PREFIX "rotate"
#define VC_STATS VC_PREFIX "stats"
#define VC_STATE VC_PREFIX "state"
#define VC_STATS_MAX 4096
#define VC_STATE_FILE "/.glusterfs/virtcache.state"
/* A saved state larger than this beyond memory-limit is not read: it could not be restored anyway. */
#define VC_STATE_SLACK (16u << 20)

enum gf_vc_mem_types_ {
    gf_vc_mt_priv = gf_common_mt_end + 1,
    gf_vc_mt_file,
    gf_vc_mt_table,
    gf_vc_mt_value,
    gf_vc_mt_end
};

typedef struct vc_config {
    uint64_t block_size;
    uint64_t window_s;
    uint64_t cache_size;
    uint64_t top_n;
    double bloom_fpr;
    uint64_t max_blocks_per_file;
    uint64_t max_files;
    uint64_t memory_limit;
    uint64_t max_filter_size;
    gf_boolean_t count_writes;
    uint64_t detector_interval_ms;
    uint64_t detector_samples;
    uint64_t detector_parallel_io;
    uint64_t detector_low_load_depth;
    uint64_t state_interval_s;
} vc_config_t;

typedef struct vc_file {
    struct vc_file *prev, *next;
    pthread_mutex_t lock;
    /* Set once, under the brick's save_lock, when the file's saved state (if any) is restored: from then on saves
     * include it. */
    int saved;
    unsigned char gfid[16];
    vc_counter_t counter;
    vc_bloom_t bloom; /* of the last completed window; bits NULL before the first */
    uint64_t epoch;   /* completed windows */
    uint64_t window_start_real_ms;
    uint64_t window_start_mono_ms;
    uint32_t block_size; /* of the current window: a new block size applies from the next window */
    uint64_t reads, writes, read_bytes, write_bytes;
    uint64_t window_reads, window_writes;
    uint64_t bloom_failures;
    /* For the interference detector: every readv/writev, whether counted as an access or not, and how long the
     * fops below took; "idle" ones were issued while nothing else was in flight on the brick, so they measure the
     * device's service time without queueing. */
    uint64_t ops, completed, latency_us, idle_completed, idle_latency_us;
    /* Guarded by the brick's det_lock, not by lock: the detector reads the counters above atomically. */
    vc_det_t det;
    uint64_t det_ops, det_completed, det_latency_us, det_idle_completed, det_idle_latency_us;
    double det_device_s;     /* last known service time without queueing; 0 before any */
    double det_low_device_s; /* the service time last measured in a low-load sample while normal; 0 before any */
    int det_fresh;           /* whether det_device_s was measured in the sub-interval being sampled */
    double det_arrivals_per_s; /* of the sub-interval being sampled */
} vc_file_t;

typedef struct {
    pthread_mutex_t lock; /* guards cfg, the file list and file_count */
    vc_config_t cfg;
    vc_file_t *files;
    uint64_t file_count;
    uint64_t untracked_files; /* refused by max-files or for want of memory */
    uint64_t config_errors;
    uint64_t budget_used;
    vc_alloc_t alloc;
    /* The brick's queue below this translator: fops in flight, and its integral over time, so that a reader can
     * compute the average queue depth between two reads as delta(area) / delta(clock). */
    pthread_mutex_t queue_lock;
    uint64_t inflight;
    uint64_t queue_area_us;
    uint64_t queue_changed_us;
    uint64_t clock_start_us;
    /* The interference detector's sub-interval; taken before lock, never under a file's lock. */
    pthread_mutex_t det_lock;
    uint64_t det_last_us;
    uint64_t det_last_area_us;
    double det_queue_depth;
    /* Saved state. save_lock serialises saves, restoring a file and destroying one, so that a save visits every file
     * without holding lock across them. Order: save_lock, then a file's lock, then lock. */
    pthread_mutex_t save_lock;
    char *state_path; /* NULL: saving is off (state-interval 0 at start, or no brick directory found) */
    struct vc_pending *pending; /* saved records of files not used since the brick started */
    uint64_t state_saves, state_errors, restored_files;
    pthread_mutex_t saver_lock; /* guards stopping */
    pthread_cond_t saver_wake;
    int stopping;
    int saver_started;
    pthread_t saver;
} vc_priv_t;

/* One saved record waiting for its file (plain malloc: it may be freed on the saver's thread). */
typedef struct vc_pending {
    struct vc_pending *next;
    size_t len;
    unsigned char rec[];
} vc_pending_t;

static void *vc_calloc(size_t n, size_t size) { return GF_CALLOC(n, size, gf_vc_mt_table); }
static void vc_free(void *p) { GF_FREE(p); }

static uint64_t now_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static uint64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Adds delta to the fops in flight; returns whether none was in flight before. */
static int vc_queue_change(vc_priv_t *priv, int delta, uint64_t now)
{
    int was_idle;
    pthread_mutex_lock(&priv->queue_lock);
    priv->queue_area_us += priv->inflight * (now - priv->queue_changed_us);
    priv->queue_changed_us = now;
    was_idle = priv->inflight == 0;
    if (delta > 0)
        priv->inflight++;
    else if (priv->inflight > 0)
        priv->inflight--;
    pthread_mutex_unlock(&priv->queue_lock);
    return was_idle;
}

static const vc_config_t vc_defaults = {
    .block_size = 65536,
    .window_s = 600,
    .cache_size = 16ULL << 30,
    .top_n = 0,
    .bloom_fpr = 0.01,
    .max_blocks_per_file = 524288,
    .max_files = 1024,
    .memory_limit = 256ULL << 20,
    .max_filter_size = 8ULL << 20,
    .count_writes = _gf_true,
    .detector_interval_ms = 1000,
    .detector_samples = 30,
    .detector_parallel_io = 16,
    .detector_low_load_depth = 4,
    .state_interval_s = 30,
};

/* The detector's model parameters: VirtCache's own (Arumugam, ch. 3, section 3.7.1), as in DetectorConfig.DEFAULTS,
 * except n and the low-load queue depth, which belong to the brick's device and are options. */
static vc_det_config_t vc_det_config(const vc_config_t *c)
{
    vc_det_config_t d = {.headroom = 0.10,
                         .parallel_io = (uint32_t)c->detector_parallel_io,
                         .low_load_queue_depth = (double)c->detector_low_load_depth,
                         .threshold = 0.05,
                         .samples_per_window = (uint32_t)c->detector_samples,
                         .confirm_evaluations = 2};
    return d;
}

static uint64_t top_n_of(const vc_config_t *c)
{
    return c->top_n ? c->top_n : c->cache_size / c->block_size;
}

static vc_file_t *vc_file_new(xlator_t *this, vc_priv_t *priv)
{
    vc_file_t *f = NULL;
    uint32_t max_slots;
    uint32_t block_size;

    pthread_mutex_lock(&priv->lock);
    if (priv->file_count >= priv->cfg.max_files) {
        priv->untracked_files++;
        pthread_mutex_unlock(&priv->lock);
        return NULL;
    }
    max_slots = (uint32_t)priv->cfg.max_blocks_per_file;
    block_size = (uint32_t)priv->cfg.block_size;
    pthread_mutex_unlock(&priv->lock);

    f = GF_CALLOC(1, sizeof(*f), gf_vc_mt_file);
    if (!f)
        goto no_memory;
    if (pthread_mutex_init(&f->lock, NULL) != 0) {
        GF_FREE(f);
        goto no_memory;
    }
    /* A file without a table is still tracked: its reads are counted as skipped blocks. */
    (void)vc_counter_init(&f->counter, &priv->alloc, max_slots);
    f->block_size = block_size;
    f->window_start_real_ms = now_ms(CLOCK_REALTIME);
    f->window_start_mono_ms = now_ms(CLOCK_MONOTONIC);

    pthread_mutex_lock(&priv->lock);
    f->next = priv->files;
    if (priv->files)
        priv->files->prev = f;
    priv->files = f;
    priv->file_count++;
    pthread_mutex_unlock(&priv->lock);
    return f;

no_memory:
    pthread_mutex_lock(&priv->lock);
    priv->untracked_files++;
    pthread_mutex_unlock(&priv->lock);
    gf_log(this->name, GF_LOG_WARNING, "no memory to track a file; it is not counted");
    return NULL;
}

static void vc_file_destroy(vc_priv_t *priv, vc_file_t *f)
{
    pthread_mutex_lock(&priv->save_lock);
    pthread_mutex_lock(&priv->lock);
    if (f->prev)
        f->prev->next = f->next;
    else
        priv->files = f->next;
    if (f->next)
        f->next->prev = f->prev;
    priv->file_count--;
    pthread_mutex_unlock(&priv->lock);
    pthread_mutex_unlock(&priv->save_lock);
    vc_counter_free(&f->counter, &priv->alloc);
    vc_bloom_free(&f->bloom, &priv->alloc);
    pthread_mutex_destroy(&f->lock);
    GF_FREE(f);
}

/* Restores a saved record into f, which may have counted a few fops since it was created: counts add up. Called
 * with save_lock and f->lock held. */
static void vc_file_restore(xlator_t *this, vc_priv_t *priv, vc_file_t *f, const vc_pending_t *p)
{
    vc_file_counts_t fc;
    vc_bloom_t b;
    uint64_t real = now_ms(CLOCK_REALTIME);
    uint64_t mono = now_ms(CLOCK_MONOTONIC);
    uint64_t age;

    if (vc_state_restore(p->rec, &fc, &f->counter, &b, &priv->alloc) != 0)
        gf_log(this->name, GF_LOG_WARNING, "no memory for the saved hot-block filter of a file; its counts restored");
    f->reads += fc.reads;
    f->writes += fc.writes;
    f->read_bytes += fc.read_bytes;
    f->write_bytes += fc.write_bytes;
    f->window_reads += fc.window_reads;
    f->window_writes += fc.window_writes;
    f->epoch = fc.epoch;
    f->block_size = fc.block_size;
    /* The window goes on from its saved start; the monotonic clock restarted with the brick. */
    age = real > fc.window_start_real_ms ? real - fc.window_start_real_ms : 0;
    f->window_start_real_ms = fc.window_start_real_ms;
    f->window_start_mono_ms = mono > age ? mono - age : 0;
    if (b.bits) {
        vc_bloom_free(&f->bloom, &priv->alloc);
        f->bloom = b;
    }
    __atomic_add_fetch(&priv->restored_files, 1, __ATOMIC_RELAXED);
}

/* Takes f, just bound to its inode, into saving: its saved record, if the brick holds one, is restored first. */
static void vc_file_claim(xlator_t *this, vc_priv_t *priv, vc_file_t *f, const unsigned char *gfid)
{
    static const unsigned char null_gfid[16];
    vc_pending_t **pp, *p = NULL;

    if (memcmp(gfid, null_gfid, 16) == 0)
        return;
    pthread_mutex_lock(&priv->save_lock);
    for (pp = &priv->pending; *pp; pp = &(*pp)->next) {
        if (memcmp(vc_state_record_gfid((*pp)->rec), gfid, 16) == 0) {
            p = *pp;
            *pp = p->next;
            break;
        }
    }
    pthread_mutex_lock(&f->lock);
    memcpy(f->gfid, gfid, 16);
    f->saved = 1;
    if (p)
        vc_file_restore(this, priv, f, p);
    pthread_mutex_unlock(&f->lock);
    pthread_mutex_unlock(&priv->save_lock);
    free(p);
}

/* The file's state, created on first use; NULL for anything but a regular file or when tracking is refused. */
static vc_file_t *vc_file_get(xlator_t *this, inode_t *inode)
{
    vc_priv_t *priv = this->private;
    uint64_t v = 0;
    vc_file_t *f = NULL;

    if (!priv || !inode || inode->ia_type != IA_IFREG)
        return NULL;
    LOCK(&inode->lock);
    if (__inode_ctx_get0(inode, this, &v) == 0 && v != 0) {
        f = (vc_file_t *)(uintptr_t)v;
        UNLOCK(&inode->lock);
        return f;
    }
    UNLOCK(&inode->lock);

    f = vc_file_new(this, priv);
    if (!f)
        return NULL;
    LOCK(&inode->lock);
    if (__inode_ctx_get0(inode, this, &v) == 0 && v != 0) {
        /* Another fop created it meanwhile. */
        UNLOCK(&inode->lock);
        vc_file_destroy(priv, f);
        return (vc_file_t *)(uintptr_t)v;
    }
    v = (uint64_t)(uintptr_t)f;
    if (__inode_ctx_set0(inode, this, &v) != 0) {
        UNLOCK(&inode->lock);
        vc_file_destroy(priv, f);
        return NULL;
    }
    UNLOCK(&inode->lock);
    vc_file_claim(this, priv, f, inode->gfid);
    return f;
}

/* Ends the window if it is over at mono (CLOCK_MONOTONIC, ms) or if forced: builds the filter of its top-N blocks and
 * starts a new one. Called with f->lock held. A window that is not over costs a compare: the configuration is copied
 * under the brick's lock only to rotate. */
static void vc_maybe_rotate(xlator_t *this, vc_priv_t *priv, vc_file_t *f, int force, uint64_t mono)
{
    vc_config_t cfg;
    vc_bloom_t nb;

    /* mono may precede the window's start: the fop read the clock before another rotated the window. */
    if (!force && (mono < f->window_start_mono_ms ||
                   mono - f->window_start_mono_ms < __atomic_load_n(&priv->cfg.window_s, __ATOMIC_RELAXED) * 1000u))
        return;
    pthread_mutex_lock(&priv->lock);
    cfg = priv->cfg;
    pthread_mutex_unlock(&priv->lock);

    memset(&nb, 0, sizeof(nb));
    nb.block_size = f->block_size;
    nb.epoch = f->epoch + 1;
    nb.window_start_ms = f->window_start_real_ms;
    {
        uint64_t len = mono > f->window_start_mono_ms ? mono - f->window_start_mono_ms : 0;
        nb.window_len_ms = (uint32_t)(len > UINT32_MAX ? UINT32_MAX : len);
    }
    /* The old filter goes first so that the new one can use its share of the memory budget. */
    vc_bloom_free(&f->bloom, &priv->alloc);
    if (vc_bloom_build(&nb, &f->counter, &priv->alloc, top_n_of(&cfg), cfg.bloom_fpr, cfg.max_filter_size) == 0) {
        f->bloom = nb;
    } else {
        f->bloom_failures++;
        gf_log(this->name, GF_LOG_WARNING, "no memory for the hot-block filter of a file (epoch %" PRIu64 ")",
               nb.epoch);
    }
    f->epoch++;
    f->window_reads = 0;
    f->window_writes = 0;
    f->window_start_real_ms = now_ms(CLOCK_REALTIME);
    f->window_start_mono_ms = mono;
    f->block_size = (uint32_t)cfg.block_size;
}

/* Counts the fop, arriving at now (CLOCK_MONOTONIC, µs), on its file; returns the file (NULL if untracked). */
static vc_file_t *vc_account(xlator_t *this, fd_t *fd, off_t offset, uint64_t len, int is_write, uint64_t now)
{
    vc_priv_t *priv = this->private;
    vc_file_t *f = NULL;

    if (!priv || !fd)
        return NULL;
    f = vc_file_get(this, fd->inode);
    if (!f)
        return NULL;
    pthread_mutex_lock(&f->lock);
    vc_maybe_rotate(this, priv, f, 0, now / 1000u);
    __atomic_add_fetch(&f->ops, 1, __ATOMIC_RELAXED);
    if (offset >= 0 && (!is_write || __atomic_load_n(&priv->cfg.count_writes, __ATOMIC_RELAXED))) {
        if (is_write) {
            f->writes++;
            f->write_bytes += len;
            f->window_writes++;
        } else {
            f->reads++;
            f->read_bytes += len;
            f->window_reads++;
        }
        vc_counter_add_range(&f->counter, &priv->alloc, (uint64_t)offset, len, f->block_size);
    }
    pthread_mutex_unlock(&f->lock);
    return f;
}

static uint64_t det_delta(uint64_t *seen, const uint64_t *counter)
{
    uint64_t now = __atomic_load_n(counter, __ATOMIC_RELAXED);
    uint64_t d = now - *seen;
    *seen = now;
    return d;
}

/* Ends the detector's sub-interval once it is over: every tracked file is one VM of the model (its arrivals, its
 * service time without queueing), the brick's average queue depth tells low load, and each file's detector gets one
 * prediction. Called on the completion path, so it costs one clock read and compare while the sub-interval runs; a
 * completion that finds another already sampling goes on. */
static void vc_det_tick(vc_priv_t *priv, uint64_t now)
{
    vc_config_t cfg;
    vc_det_config_t dc;
    uint64_t area, span;
    double u = 0, seconds, depth;
    vc_file_t *f;

    if (!priv || now - __atomic_load_n(&priv->det_last_us, __ATOMIC_RELAXED) <
                     __atomic_load_n(&priv->cfg.detector_interval_ms, __ATOMIC_RELAXED) * 1000u)
        return;
    if (pthread_mutex_trylock(&priv->det_lock) != 0)
        return;
    pthread_mutex_lock(&priv->lock);
    cfg = priv->cfg;
    dc = vc_det_config(&cfg);
    span = now - priv->det_last_us;
    if (now < priv->det_last_us || span < cfg.detector_interval_ms * 1000u)
        goto out;
    pthread_mutex_lock(&priv->queue_lock);
    priv->queue_area_us += priv->inflight * (now - priv->queue_changed_us);
    priv->queue_changed_us = now;
    area = priv->queue_area_us;
    pthread_mutex_unlock(&priv->queue_lock);
    seconds = span / 1e6;
    depth = (double)(area - priv->det_last_area_us) / (double)span;
    priv->det_last_us = now;
    priv->det_last_area_us = area;
    priv->det_queue_depth = depth;
    for (f = priv->files; f; f = f->next) {
        uint64_t ops = det_delta(&f->det_ops, &f->ops);
        uint64_t completed = det_delta(&f->det_completed, &f->completed);
        uint64_t latency = det_delta(&f->det_latency_us, &f->latency_us);
        uint64_t idle = det_delta(&f->det_idle_completed, &f->idle_completed);
        uint64_t idle_latency = det_delta(&f->det_idle_latency_us, &f->idle_latency_us);
        /* As LoadSampler: d from the fops that ran alone; kept while none did; the plain mean until one has. */
        f->det_fresh = idle > 0;
        if (idle > 0)
            f->det_device_s = fmax(1e-6, idle_latency / 1e6 / idle);
        else if (f->det_device_s == 0 && completed > 0)
            f->det_device_s = fmax(1e-6, latency / 1e6 / completed);
        f->det_arrivals_per_s = ops / seconds;
        if (f->det_device_s > 0)
            u += vc_det_utilization(&dc, f->det_arrivals_per_s, f->det_device_s);
    }
    for (f = priv->files; f; f = f->next) {
        double d = f->det_device_s;
        if (d <= 0)
            continue;
        /* A redirected file sends the brick (almost) nothing, so its own service time is not measured again and the
         * last value, perhaps taken in the peak, would hold it interfered for good. Without a fresh measurement it is
         * predicted with the service time it had at low load: what it would see if it came back now, given the
         * others' load in U. */
        if (f->det.state == VC_DET_NORMAL && f->det_fresh && depth < dc.low_load_queue_depth && u < 1)
            f->det_low_device_s = d;
        else if (f->det.state == VC_DET_INTERFERED && !f->det_fresh && f->det_low_device_s > 0)
            d = f->det_low_device_s;
        vc_det_record(&f->det, &dc, u, d, depth);
    }
out:
    pthread_mutex_unlock(&priv->lock);
    pthread_mutex_unlock(&priv->det_lock);
}

/* What a fop's callback needs, carried without allocating: the file in frame->local (cleared by the callback, so the
 * frame's destructor never hands it to a memory pool) and, in the wind's cookie, the start time with the idle bit. */
#define VC_COOKIE(start_us, idle) ((void *)(uintptr_t)(((start_us) << 1) | ((idle) ? 1u : 0u)))

/* Starts timing a fop of file f at now: returns its cookie. */
static void *vc_start(xlator_t *this, uint64_t now)
{
    return VC_COOKIE(now, vc_queue_change(this->private, +1, now));
}

/* Ends the fop started with cookie: its latency and idle bit go to the file's counters (atomics: the detector reads
 * each on its own), then the detector's sub-interval may end. */
static void vc_finish(xlator_t *this, vc_file_t *f, void *cookie)
{
    uint64_t now = now_us();
    uint64_t start = (uint64_t)(uintptr_t)cookie >> 1;
    uint64_t latency = now > start ? now - start : 0;
    vc_queue_change(this->private, -1, now);
    __atomic_add_fetch(&f->completed, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&f->latency_us, latency, __ATOMIC_RELAXED);
    if ((uintptr_t)cookie & 1u) {
        __atomic_add_fetch(&f->idle_completed, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&f->idle_latency_us, latency, __ATOMIC_RELAXED);
    }
    vc_det_tick(this->private, now);
}

int32_t vc_readv_cbk(call_frame_t *frame, void *cookie, xlator_t *this, int32_t op_ret, int32_t op_errno,
                     struct iovec *vector, int32_t count, struct iatt *stbuf, struct iobref *iobref, dict_t *xdata)
{
    vc_file_t *f = frame->local;
    frame->local = NULL;
    if (f)
        vc_finish(this, f, cookie);
    STACK_UNWIND_STRICT(readv, frame, op_ret, op_errno, vector, count, stbuf, iobref, xdata);
    return 0;
}

int32_t vc_writev_cbk(call_frame_t *frame, void *cookie, xlator_t *this, int32_t op_ret, int32_t op_errno,
                      struct iatt *prebuf, struct iatt *postbuf, dict_t *xdata)
{
    vc_file_t *f = frame->local;
    frame->local = NULL;
    if (f)
        vc_finish(this, f, cookie);
    STACK_UNWIND_STRICT(writev, frame, op_ret, op_errno, prebuf, postbuf, xdata);
    return 0;
}

int32_t vc_readv(call_frame_t *frame, xlator_t *this, fd_t *fd, size_t size, off_t offset, uint32_t flags,
                 dict_t *xdata)
{
    uint64_t now = now_us();
    vc_file_t *f = vc_account(this, fd, offset, size, 0, now);
    if (!f)
        return default_readv(frame, this, fd, size, offset, flags, xdata);
    frame->local = f;
    STACK_WIND_COOKIE(frame, vc_readv_cbk, vc_start(this, now), FIRST_CHILD(this), FIRST_CHILD(this)->fops->readv,
                      fd, size, offset, flags, xdata);
    return 0;
}

int32_t vc_writev(call_frame_t *frame, xlator_t *this, fd_t *fd, struct iovec *vector, int32_t count, off_t offset,
                  uint32_t flags, struct iobref *iobref, dict_t *xdata)
{
    uint64_t now = now_us();
    vc_file_t *f = vc_account(this, fd, offset, vector ? iov_length(vector, count) : 0, 1, now);
    if (!f)
        return default_writev(frame, this, fd, vector, count, offset, flags, iobref, xdata);
    frame->local = f;
    STACK_WIND_COOKIE(frame, vc_writev_cbk, vc_start(this, now), FIRST_CHILD(this), FIRST_CHILD(this)->fops->writev,
                      fd, vector, count, offset, flags, iobref, xdata);
    return 0;
}

#define VC_STATE_MAX 512

/* Formats the state value: the detector's verdict on the file and what it was drawn from (times in microseconds). */
static int vc_format_state(vc_priv_t *priv, vc_file_t *f, char *buf, size_t cap)
{
    vc_det_t d;
    double device_s, arrivals, depth;
    pthread_mutex_lock(&priv->det_lock);
    d = f->det;
    device_s = f->det_device_s;
    arrivals = f->det_arrivals_per_s;
    depth = priv->det_queue_depth;
    pthread_mutex_unlock(&priv->det_lock);
    int n = snprintf(buf, cap,
                     "state=%s\nepoch=%" PRIu64 "\ndetector=queueing-model\nevaluations=%" PRIu64
                     "\nviolations=%" PRIu32 "\np90_us=%.1f\nlow_load_p90_us=%.1f\nsamples=%" PRIu32
                     "\nlow_load_samples=%" PRIu32 "\ndevice_us=%.1f\narrivals_per_s=%.2f\nbrick_queue_depth=%.3f\n",
                     vc_det_state_name(d.state), f->epoch, d.evaluations, d.violations, d.p90 * 1e6,
                     d.low_load_p90 * 1e6, d.recent.size, d.low_load.size, device_s * 1e6, arrivals, depth);
    return n < 0 || (size_t)n >= cap ? -EOVERFLOW : n;
}

/* Formats the stats value into buf; returns its length (without NUL), or -1 if it does not fit. */
static int vc_format_stats(vc_priv_t *priv, vc_file_t *f, char *buf, size_t cap)
{
    vc_slot_t top[VC_TOP_LIST];
    uint32_t ntop = vc_counter_top(&f->counter, top, VC_TOP_LIST);
    uint64_t files, untracked, budget, config_errors;
    uint64_t inflight, area, clock;
    vc_config_t cfg;
    size_t len = 0;
    int n;

    pthread_mutex_lock(&priv->lock);
    files = priv->file_count;
    untracked = priv->untracked_files;
    config_errors = priv->config_errors;
    cfg = priv->cfg;
    pthread_mutex_unlock(&priv->lock);
    budget = __atomic_load_n(&priv->budget_used, __ATOMIC_RELAXED);
    {
        uint64_t now = now_us();
        pthread_mutex_lock(&priv->queue_lock);
        priv->queue_area_us += priv->inflight * (now - priv->queue_changed_us);
        priv->queue_changed_us = now;
        inflight = priv->inflight;
        area = priv->queue_area_us;
        clock = now - priv->clock_start_us;
        pthread_mutex_unlock(&priv->queue_lock);
    }

    n = snprintf(buf, cap,
                 "version=1\nblock_size=%" PRIu32 "\nepoch=%" PRIu64 "\nwindow_start_ms=%" PRIu64
                 "\nreads=%" PRIu64 "\nwrites=%" PRIu64 "\nread_bytes=%" PRIu64 "\nwrite_bytes=%" PRIu64
                 "\nwindow_reads=%" PRIu64 "\nwindow_writes=%" PRIu64 "\nwindow_blocks=%" PRIu32
                 "\nwindow_evictions=%" PRIu64 "\nwindow_skipped_blocks=%" PRIu64 "\ntable_slots=%" PRIu32
                 "\nbloom_epoch=%" PRIu64 "\nbloom_n=%" PRIu64 "\nbloom_m_bits=%" PRIu64 "\nbloom_k=%u"
                 "\nbloom_failures=%" PRIu64 "\nbrick_files=%" PRIu64 "\nbrick_untracked_files=%" PRIu64
                 "\nbrick_memory_bytes=%" PRIu64 "\nbrick_config_errors=%" PRIu64 "\nconfig_block_size=%" PRIu64
                 "\nconfig_window_s=%" PRIu64 "\nconfig_top_n=%" PRIu64 "\nconfig_bloom_fpr=%g"
                 "\nconfig_max_blocks_per_file=%" PRIu64 "\nconfig_max_files=%" PRIu64
                 "\nconfig_memory_limit=%" PRIu64 "\nconfig_max_filter_size=%" PRIu64 "\nconfig_count_writes=%d"
                 "\nconfig_detector_interval_ms=%" PRIu64 "\nconfig_detector_samples=%" PRIu64
                 "\nconfig_detector_parallel_io=%" PRIu64 "\nconfig_detector_low_load_depth=%" PRIu64 "\nops=%" PRIu64 "\ncompleted=%" PRIu64 "\nlatency_us=%" PRIu64 "\nidle_completed=%" PRIu64
                 "\nidle_latency_us=%" PRIu64 "\nbrick_inflight=%" PRIu64 "\nbrick_queue_area_us=%" PRIu64
                 "\nbrick_clock_us=%" PRIu64 "\nconfig_state_interval_s=%" PRIu64 "\nbrick_state_saves=%" PRIu64
                 "\nbrick_state_errors=%" PRIu64 "\nbrick_restored_files=%" PRIu64 "\ntop=",
                 f->block_size, f->epoch, f->window_start_real_ms, f->reads, f->writes, f->read_bytes,
                 f->write_bytes, f->window_reads, f->window_writes, f->counter.used, f->counter.evictions,
                 f->counter.skipped_blocks, f->counter.cap, f->bloom.bits ? f->bloom.epoch : 0,
                 f->bloom.bits ? f->bloom.n_inserted : 0, f->bloom.bits ? f->bloom.m_bits : 0,
                 f->bloom.bits ? (unsigned)f->bloom.k : 0u, f->bloom_failures, files, untracked, budget,
                 config_errors, cfg.block_size, cfg.window_s, top_n_of(&cfg), cfg.bloom_fpr,
                 cfg.max_blocks_per_file, cfg.max_files, cfg.memory_limit, cfg.max_filter_size,
                 cfg.count_writes ? 1 : 0, cfg.detector_interval_ms, cfg.detector_samples, cfg.detector_parallel_io,
                 cfg.detector_low_load_depth,
                 __atomic_load_n(&f->ops, __ATOMIC_RELAXED), __atomic_load_n(&f->completed, __ATOMIC_RELAXED),
                 __atomic_load_n(&f->latency_us, __ATOMIC_RELAXED),
                 __atomic_load_n(&f->idle_completed, __ATOMIC_RELAXED),
                 __atomic_load_n(&f->idle_latency_us, __ATOMIC_RELAXED), inflight, area, clock, cfg.state_interval_s,
                 __atomic_load_n(&priv->state_saves, __ATOMIC_RELAXED),
                 __atomic_load_n(&priv->state_errors, __ATOMIC_RELAXED),
                 __atomic_load_n(&priv->restored_files, __ATOMIC_RELAXED));
    if (n < 0 || (size_t)n >= cap)
        return -1;
    len = (size_t)n;
    n = vc_format_top(top, ntop, buf + len, cap - len);
    if (n < 0)
        return -1;
    len += (size_t)n;
    if (len + 2 > cap)
        return -1;
    buf[len++] = '\n';
    buf[len] = '\0';
    return (int)len;
}

/* Builds the value of a virtual xattr; returns its length with *out set (GF_MALLOC'd), or -errno. */
static long vc_xattr_value(xlator_t *this, vc_file_t *f, const char *name, char **out)
{
    vc_priv_t *priv = this->private;
    long chunk = vc_parse_bloom_name(name);
    char *buf = NULL;
    long len = -ENODATA;

    pthread_mutex_lock(&f->lock);
    vc_maybe_rotate(this, priv, f, 0, now_us() / 1000u);
    if (strcmp(name, VC_STATS) == 0) {
        buf = GF_MALLOC(VC_STATS_MAX, gf_vc_mt_value);
        len = buf ? vc_format_stats(priv, f, buf, VC_STATS_MAX) : -ENOMEM;
        if (len < 0 && buf)
            len = -EOVERFLOW;
    } else if (strcmp(name, VC_STATE) == 0) {
        buf = GF_MALLOC(VC_STATE_MAX, gf_vc_mt_value);
        len = buf ? vc_format_state(priv, f, buf, VC_STATE_MAX) : -ENOMEM;
    } else if (chunk >= 0) {
        /* Before the first window ends: an empty filter, so clients need no special case. */
        uint64_t zero = 0;
        vc_bloom_t empty = {.k = 1, .m_bits = 64, .epoch = f->epoch, .block_size = f->block_size, .bits = &zero};
        const vc_bloom_t *b = f->bloom.bits ? &f->bloom : &empty;
        if (!f->bloom.bits)
            empty.crc32c = vc_crc32c(&zero, sizeof(zero));
        if ((uint64_t)chunk < vc_bloom_chunk_count(b)) {
            size_t need = VC_BLOOM_HEADER_BYTES + vc_bloom_chunk_bytes(b, (uint32_t)chunk);
            buf = GF_MALLOC(need, gf_vc_mt_value);
            len = buf ? vc_bloom_serialize_chunk(b, (uint32_t)chunk, (unsigned char *)buf, need) : -ENOMEM;
            if (len < 0 && buf)
                len = -EIO;
        }
    }
    pthread_mutex_unlock(&f->lock);
    if (len < 0) {
        GF_FREE(buf);
        return len;
    }
    *out = buf;
    return len;
}

/* Answers a trusted.virtcache.* getxattr; returns 1 if it unwound the frame, 0 if the fop should go down. */
static int vc_getxattr_common(call_frame_t *frame, xlator_t *this, inode_t *inode, const char *name, int by_fd)
{
    dict_t *dict = NULL;
    char *value = NULL;
    long len;
    int op_errno = 0;
    vc_file_t *f = NULL;

    if (!name || strncmp(name, VC_PREFIX, sizeof(VC_PREFIX) - 1) != 0)
        return 0;
    f = vc_file_get(this, inode);
    if (!f) {
        op_errno = (inode && inode->ia_type == IA_IFREG) ? ENOMEM : ENODATA;
        goto fail;
    }
    /* Samples are otherwise taken at completions; a quiet brick (its victims redirected, the peak over) would keep
     * serving a stale verdict. */
    if (strcmp(name, VC_STATE) == 0)
        vc_det_tick(this->private, now_us());
    len = vc_xattr_value(this, f, name, &value);
    if (len < 0) {
        op_errno = (int)-len;
        goto fail;
    }
    dict = dict_new();
    if (!dict) {
        GF_FREE(value);
        op_errno = ENOMEM;
        goto fail;
    }
    if (dict_set_dynptr(dict, (char *)name, value, (size_t)len) != 0) {
        GF_FREE(value);
        dict_unref(dict);
        op_errno = ENOMEM;
        goto fail;
    }
    if (by_fd)
        STACK_UNWIND_STRICT(fgetxattr, frame, (int32_t)len, 0, dict, NULL);
    else
        STACK_UNWIND_STRICT(getxattr, frame, (int32_t)len, 0, dict, NULL);
    dict_unref(dict);
    return 1;

fail:
    if (by_fd)
        STACK_UNWIND_STRICT(fgetxattr, frame, -1, op_errno, NULL, NULL);
    else
        STACK_UNWIND_STRICT(getxattr, frame, -1, op_errno, NULL, NULL);
    return 1;
}

int32_t vc_getxattr(call_frame_t *frame, xlator_t *this, loc_t *loc, const char *name, dict_t *xdata)
{
    if (vc_getxattr_common(frame, this, loc ? loc->inode : NULL, name, 0))
        return 0;
    return default_getxattr(frame, this, loc, name, xdata);
}

int32_t vc_fgetxattr(call_frame_t *frame, xlator_t *this, fd_t *fd, const char *name, dict_t *xdata)
{
    if (vc_getxattr_common(frame, this, fd ? fd->inode : NULL, name, 1))
        return 0;
    return default_fgetxattr(frame, this, fd, name, xdata);
}

static int vc_count_own_keys(dict_t *d, char *key, data_t *value, void *data)
{
    int *own = data;
    if (key && strncmp(key, VC_PREFIX, sizeof(VC_PREFIX) - 1) == 0) {
        own[0]++;
        if (strcmp(key, VC_ROTATE) == 0)
            own[1]++;
    }
    return 0;
}

/* Handles a setxattr naming trusted.virtcache.*: returns -1 to pass it down, else the errno to answer (0 = ok). */
static int vc_setxattr_common(xlator_t *this, inode_t *inode, dict_t *dict)
{
    int own[2] = {0, 0};
    vc_file_t *f = NULL;

    if (!dict)
        return -1;
    dict_foreach(dict, vc_count_own_keys, own);
    if (own[0] == 0)
        return -1;
    if (own[0] != 1 || own[1] != 1 || dict->count != 1)
        return EPERM;
    f = vc_file_get(this, inode);
    if (!f)
        return (inode && inode->ia_type == IA_IFREG) ? ENOMEM : EPERM;
    pthread_mutex_lock(&f->lock);
    vc_maybe_rotate(this, this->private, f, 1, now_us() / 1000u);
    pthread_mutex_unlock(&f->lock);
    return 0;
}

int32_t vc_setxattr(call_frame_t *frame, xlator_t *this, loc_t *loc, dict_t *dict, int32_t flags, dict_t *xdata)
{
    int err = vc_setxattr_common(this, loc ? loc->inode : NULL, dict);
    if (err < 0)
        return default_setxattr(frame, this, loc, dict, flags, xdata);
    int32_t op_ret = err ? -1 : 0;
    STACK_UNWIND_STRICT(setxattr, frame, op_ret, err, NULL);
    return 0;
}

int32_t vc_fsetxattr(call_frame_t *frame, xlator_t *this, fd_t *fd, dict_t *dict, int32_t flags, dict_t *xdata)
{
    int err = vc_setxattr_common(this, fd ? fd->inode : NULL, dict);
    if (err < 0)
        return default_fsetxattr(frame, this, fd, dict, flags, xdata);
    int32_t op_ret = err ? -1 : 0;
    STACK_UNWIND_STRICT(fsetxattr, frame, op_ret, err, NULL);
    return 0;
}

static int is_own(const char *name) { return name && strncmp(name, VC_PREFIX, sizeof(VC_PREFIX) - 1) == 0; }

int32_t vc_removexattr(call_frame_t *frame, xlator_t *this, loc_t *loc, const char *name, dict_t *xdata)
{
    if (is_own(name)) {
        STACK_UNWIND_STRICT(removexattr, frame, -1, EPERM, NULL);
        return 0;
    }
    return default_removexattr(frame, this, loc, name, xdata);
}

int32_t vc_fremovexattr(call_frame_t *frame, xlator_t *this, fd_t *fd, const char *name, dict_t *xdata)
{
    if (is_own(name)) {
        STACK_UNWIND_STRICT(fremovexattr, frame, -1, EPERM, NULL);
        return 0;
    }
    return default_fremovexattr(frame, this, fd, name, xdata);
}

static int32_t vc_forget(xlator_t *this, inode_t *inode)
{
    uint64_t v = 0;
    if (inode_ctx_del(inode, this, &v) == 0 && v != 0 && this->private)
        vc_file_destroy(this->private, (vc_file_t *)(uintptr_t)v);
    return 0;
}

/* Reads all options into c; 0, or -1 if one of them is invalid (c is then partly filled and must not be used). */
/* A decimal in [0.0001, 0.5]; libglusterfs 10.3 has no reconfigure parser for doubles, so this one is ours. */
static int vc_parse_fpr(const char *s, double *out)
{
    char *end = NULL;
    double v;
    if (!s)
        return -1;
    errno = 0;
    v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= 0.0001) || !(v <= 0.5))
        return -1;
    *out = v;
    return 0;
}

static int vc_read_options(xlator_t *this, dict_t *options, vc_config_t *c, int init)
{
    time_t window = 0;
    char *fpr = NULL;
    if (init) {
        GF_OPTION_INIT("block-size", c->block_size, size_uint64, bad);
        GF_OPTION_INIT("window", window, time, bad);
        GF_OPTION_INIT("cache-size", c->cache_size, size_uint64, bad);
        GF_OPTION_INIT("top-n", c->top_n, uint64, bad);
        GF_OPTION_INIT("bloom-fpr", fpr, str, bad);
        GF_OPTION_INIT("max-blocks-per-file", c->max_blocks_per_file, uint64, bad);
        GF_OPTION_INIT("max-files", c->max_files, uint64, bad);
        GF_OPTION_INIT("memory-limit", c->memory_limit, size_uint64, bad);
        GF_OPTION_INIT("max-filter-size", c->max_filter_size, size_uint64, bad);
        GF_OPTION_INIT("count-writes", c->count_writes, bool, bad);
        GF_OPTION_INIT("detector-interval", c->detector_interval_ms, uint64, bad);
        GF_OPTION_INIT("detector-samples", c->detector_samples, uint64, bad);
        GF_OPTION_INIT("detector-parallel-io", c->detector_parallel_io, uint64, bad);
        GF_OPTION_INIT("detector-low-load-depth", c->detector_low_load_depth, uint64, bad);
        GF_OPTION_INIT("state-interval", c->state_interval_s, uint64, bad);
    } else {
        GF_OPTION_RECONF("block-size", c->block_size, options, size_uint64, bad);
        GF_OPTION_RECONF("window", window, options, time, bad);
        GF_OPTION_RECONF("cache-size", c->cache_size, options, size_uint64, bad);
        GF_OPTION_RECONF("top-n", c->top_n, options, uint64, bad);
        GF_OPTION_RECONF("bloom-fpr", fpr, options, str, bad);
        GF_OPTION_RECONF("max-blocks-per-file", c->max_blocks_per_file, options, uint64, bad);
        GF_OPTION_RECONF("max-files", c->max_files, options, uint64, bad);
        GF_OPTION_RECONF("memory-limit", c->memory_limit, options, size_uint64, bad);
        GF_OPTION_RECONF("max-filter-size", c->max_filter_size, options, size_uint64, bad);
        GF_OPTION_RECONF("count-writes", c->count_writes, options, bool, bad);
        GF_OPTION_RECONF("detector-interval", c->detector_interval_ms, options, uint64, bad);
        GF_OPTION_RECONF("detector-samples", c->detector_samples, options, uint64, bad);
        GF_OPTION_RECONF("detector-parallel-io", c->detector_parallel_io, options, uint64, bad);
        GF_OPTION_RECONF("detector-low-load-depth", c->detector_low_load_depth, options, uint64, bad);
        GF_OPTION_RECONF("state-interval", c->state_interval_s, options, uint64, bad);
    }
    c->window_s = (uint64_t)window;
    if (vc_parse_fpr(fpr, &c->bloom_fpr) != 0) {
        gf_log(this->name, GF_LOG_ERROR, "bloom-fpr \"%s\" (expected: a decimal from 0.0001 to 0.5)",
               fpr ? fpr : "");
        goto bad;
    }
    /* Ranges the option table cannot express for every type. */
    if (c->block_size < 512 || c->block_size > (64u << 20) || c->window_s < 1 || !(c->bloom_fpr >= 0.0001) ||
        !(c->bloom_fpr <= 0.5) || c->max_blocks_per_file < 1024 || c->max_blocks_per_file > (1u << 30) ||
        c->max_files < 1 || c->memory_limit < (1u << 20) || c->memory_limit > (64ULL << 30) ||
        c->max_filter_size < 64 || c->max_filter_size > (1u << 30) || c->detector_interval_ms < 10 ||
        c->detector_interval_ms > 60000 || c->detector_samples < 1 || c->detector_samples > VC_DET_MAX_SAMPLES ||
        c->detector_parallel_io < 1 || c->detector_parallel_io > 1024 || c->detector_low_load_depth < 1 ||
        c->detector_low_load_depth > 1024 || c->state_interval_s > 86400)
        goto bad;
    return 0;
bad:
    return -1;
}

static void vc_log_config(xlator_t *this, const char *what, const vc_config_t *c)
{
    gf_log(this->name, GF_LOG_INFO,
           "virtcache %s: block-size=%" PRIu64 " window=%" PRIu64 "s cache-size=%" PRIu64 " top-n=%" PRIu64
           " bloom-fpr=%g max-blocks-per-file=%" PRIu64 " max-files=%" PRIu64 " memory-limit=%" PRIu64
           " max-filter-size=%" PRIu64 " count-writes=%s detector-interval=%" PRIu64 "ms detector-samples=%" PRIu64
           " detector-parallel-io=%" PRIu64 " detector-low-load-depth=%" PRIu64 " state-interval=%" PRIu64 "s",
           what, c->block_size, c->window_s, c->cache_size, top_n_of(c), c->bloom_fpr, c->max_blocks_per_file,
           c->max_files, c->memory_limit, c->max_filter_size, c->count_writes ? "on" : "off", c->detector_interval_ms,
           c->detector_samples, c->detector_parallel_io, c->detector_low_load_depth, c->state_interval_s);
}

/* A growing byte buffer for a save (plain malloc: the saver's thread is no translator's). */
typedef struct {
    unsigned char *p;
    size_t len, cap;
} vc_buf_t;

static int vc_buf_reserve(vc_buf_t *b, size_t more)
{
    size_t cap = b->cap ? b->cap : 65536;
    unsigned char *p;
    if (more > SIZE_MAX - b->len)
        return -1;
    while (cap < b->len + more)
        cap *= 2;
    if (cap == b->cap)
        return 0;
    p = realloc(b->p, cap);
    if (!p)
        return -1;
    b->p = p;
    b->cap = cap;
    return 0;
}

/* Writes all of buf to path's temporary sibling, syncs it and renames it over path, then syncs the directory. */
static int vc_write_atomically(const char *path, const unsigned char *buf, size_t len, const char **what)
{
    char tmp[PATH_MAX];
    char dir[PATH_MAX];
    char *slash;
    size_t done = 0;
    int fd;

    if (snprintf(tmp, sizeof(tmp), "%s.new", path) >= (int)sizeof(tmp)) {
        *what = "path too long";
        errno = ENAMETOOLONG;
        return -1;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        *what = "open";
        return -1;
    }
    while (done < len) {
        ssize_t n = write(fd, buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            *what = "write";
            goto fail;
        }
        done += (size_t)n;
    }
    if (fsync(fd) != 0) {
        *what = "fsync";
        goto fail;
    }
    close(fd);
    if (rename(tmp, path) != 0) {
        *what = "rename";
        unlink(tmp);
        return -1;
    }
    snprintf(dir, sizeof(dir), "%s", path);
    slash = strrchr(dir, '/');
    if (slash && slash != dir) {
        *slash = '\0';
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            (void)fsync(fd);
            close(fd);
        }
    }
    return 0;
fail: {
    int err = errno;
    close(fd);
    unlink(tmp);
    errno = err;
    return -1;
}
}

/* The file's counts as saved and dumped. Called with f->lock held. */
static void vc_file_counts(const vc_file_t *f, vc_file_counts_t *fc)
{
    memset(fc, 0, sizeof(*fc));
    memcpy(fc->gfid, f->gfid, 16);
    fc->block_size = f->block_size;
    fc->epoch = f->epoch;
    fc->window_start_real_ms = f->window_start_real_ms;
    fc->reads = f->reads;
    fc->writes = f->writes;
    fc->read_bytes = f->read_bytes;
    fc->write_bytes = f->write_bytes;
    fc->window_reads = f->window_reads;
    fc->window_writes = f->window_writes;
}

/* Saves every file's counts and filter, and the records of files not used since the start, to the state file. */
static void vc_state_save(xlator_t *this, vc_priv_t *priv)
{
    vc_buf_t buf = {0};
    uint32_t records = 0;
    const char *what = "no memory";
    vc_file_t *f;
    vc_pending_t *p;
    int failed = 0;

    if (!priv->state_path)
        return;
    if (vc_buf_reserve(&buf, VC_STATE_HEADER_BYTES) != 0)
        goto fail;
    buf.len = VC_STATE_HEADER_BYTES;
    pthread_mutex_lock(&priv->save_lock);
    /* Files leave the list only under save_lock, so each stays valid while its lock is taken and its next read. */
    pthread_mutex_lock(&priv->lock);
    f = priv->files;
    pthread_mutex_unlock(&priv->lock);
    while (f && !failed) {
        pthread_mutex_lock(&f->lock);
        if (f->saved) {
            vc_file_counts_t fc;
            vc_file_counts(f, &fc);
            if (vc_buf_reserve(&buf, vc_state_record_bytes(&f->counter, &f->bloom)) == 0) {
                buf.len += vc_state_put_record(buf.p + buf.len, &fc, &f->counter, &f->bloom);
                records++;
            } else {
                failed = 1;
            }
        }
        pthread_mutex_unlock(&f->lock);
        pthread_mutex_lock(&priv->lock);
        f = f->next;
        pthread_mutex_unlock(&priv->lock);
    }
    for (p = priv->pending; p && !failed; p = p->next) {
        if (vc_buf_reserve(&buf, p->len) == 0) {
            memcpy(buf.p + buf.len, p->rec, p->len);
            buf.len += p->len;
            records++;
        } else {
            failed = 1;
        }
    }
    pthread_mutex_unlock(&priv->save_lock);
    if (failed)
        goto fail;
    vc_state_put_header(buf.p, records);
    if (vc_write_atomically(priv->state_path, buf.p, buf.len, &what) != 0) {
        gf_log(this->name, GF_LOG_WARNING, "virtcache could not save its counts to %s (%s: %s); the last saved stay",
               priv->state_path, what, strerror(errno));
        __atomic_add_fetch(&priv->state_errors, 1, __ATOMIC_RELAXED);
    } else {
        __atomic_add_fetch(&priv->state_saves, 1, __ATOMIC_RELAXED);
    }
    free(buf.p);
    return;
fail:
    gf_log(this->name, GF_LOG_WARNING, "virtcache could not save its counts to %s (%s); the last saved stay",
           priv->state_path, what);
    __atomic_add_fetch(&priv->state_errors, 1, __ATOMIC_RELAXED);
    free(buf.p);
}

static void vc_pending_free_all(vc_priv_t *priv)
{
    while (priv->pending) {
        vc_pending_t *p = priv->pending;
        priv->pending = p->next;
        free(p);
    }
}

/* Sets a state file the brick cannot use aside, so that the next save does not destroy what it held. */
static void vc_state_reject(xlator_t *this, vc_priv_t *priv, const char *why, size_t at)
{
    char bad[PATH_MAX];
    vc_pending_free_all(priv);
    __atomic_add_fetch(&priv->state_errors, 1, __ATOMIC_RELAXED);
    if (snprintf(bad, sizeof(bad), "%s.bad", priv->state_path) < (int)sizeof(bad) &&
        rename(priv->state_path, bad) == 0)
        gf_log(this->name, GF_LOG_ERROR,
               "virtcache saved state %s is unusable (%s at byte %zu), moved to %s; counting starts afresh",
               priv->state_path, why, at, bad);
    else
        gf_log(this->name, GF_LOG_ERROR, "virtcache saved state %s is unusable (%s at byte %zu); counting starts afresh",
               priv->state_path, why, at);
}

/* Reads the state file into pending records; a missing file is a first start, anything unusable is set aside. */
static void vc_state_load(xlator_t *this, vc_priv_t *priv, uint64_t memory_limit)
{
    struct stat st;
    unsigned char *buf = NULL;
    size_t len, at, done = 0;
    long records;
    const char *why = NULL;
    int fd = open(priv->state_path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        if (errno == ENOENT)
            gf_log(this->name, GF_LOG_INFO, "virtcache has no saved state at %s; counting starts afresh",
                   priv->state_path);
        else
            vc_state_reject(this, priv, strerror(errno), 0);
        return;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        vc_state_reject(this, priv, "not a readable regular file", 0);
        return;
    }
    if ((uint64_t)st.st_size > memory_limit + VC_STATE_SLACK) {
        close(fd);
        vc_state_reject(this, priv, "larger than memory-limit allows", 0);
        return;
    }
    len = (size_t)st.st_size;
    buf = malloc(len ? len : 1);
    if (!buf) {
        close(fd);
        gf_log(this->name, GF_LOG_ERROR, "virtcache has no memory to read %s; counting starts afresh",
               priv->state_path);
        return;
    }
    while (done < len) {
        ssize_t n = read(fd, buf + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    close(fd);
    len = done;
    records = vc_state_check_header(buf, len, &why);
    if (records < 0) {
        vc_state_reject(this, priv, why, 0);
        free(buf);
        return;
    }
    at = VC_STATE_HEADER_BYTES;
    for (long i = 0; i < records; i++) {
        long n = vc_state_check_record(buf + at, len - at, &why);
        vc_pending_t *p, *q;
        if (n < 0) {
            vc_state_reject(this, priv, why, at);
            free(buf);
            return;
        }
        for (q = priv->pending; q; q = q->next)
            if (memcmp(vc_state_record_gfid(q->rec), vc_state_record_gfid(buf + at), 16) == 0)
                break;
        if (q) {
            vc_state_reject(this, priv, "a file saved twice", at);
            free(buf);
            return;
        }
        p = malloc(sizeof(*p) + (size_t)n);
        if (!p) {
            vc_pending_free_all(priv);
            gf_log(this->name, GF_LOG_ERROR, "virtcache has no memory to restore %s; counting starts afresh",
                   priv->state_path);
            free(buf);
            return;
        }
        p->len = (size_t)n;
        memcpy(p->rec, buf + at, (size_t)n);
        p->next = priv->pending;
        priv->pending = p;
        at += (size_t)n;
    }
    if (at != len) {
        vc_state_reject(this, priv, "bytes after the last record", at);
        free(buf);
        return;
    }
    free(buf);
    gf_log(this->name, GF_LOG_INFO, "virtcache read the saved counts of %ld files from %s", records,
           priv->state_path);
}

/* The brick's directory: the "directory" option of the storage translator below. */
static const char *vc_brick_directory(xlator_t *this)
{
    xlator_t *x;
    for (x = FIRST_CHILD(this); x; x = x->children ? FIRST_CHILD(x) : NULL) {
        char *dir = NULL;
        if (x->options && dict_get_str(x->options, "directory", &dir) == 0 && dir && *dir)
            return dir;
    }
    return NULL;
}

/* Saves every state-interval seconds (read each second, so a new value applies at once) until fini. */
static void *vc_saver(void *arg)
{
    xlator_t *this = arg;
    vc_priv_t *priv = this->private;
    uint64_t last = now_ms(CLOCK_MONOTONIC);

    THIS = this;
    pthread_mutex_lock(&priv->saver_lock);
    while (!priv->stopping) {
        struct timespec until;
        uint64_t interval;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&priv->saver_wake, &priv->saver_lock, &until);
        interval = __atomic_load_n(&priv->cfg.state_interval_s, __ATOMIC_RELAXED);
        if (priv->stopping || interval == 0 || now_ms(CLOCK_MONOTONIC) - last < interval * 1000u)
            continue;
        pthread_mutex_unlock(&priv->saver_lock);
        vc_state_save(this, priv);
        last = now_ms(CLOCK_MONOTONIC);
        pthread_mutex_lock(&priv->saver_lock);
    }
    pthread_mutex_unlock(&priv->saver_lock);
    return NULL;
}

/* Finds the state file, reads it and starts saving; with state-interval 0 nothing is read or saved. */
static void vc_state_start(xlator_t *this, vc_priv_t *priv)
{
    const char *dir;
    size_t n;

    if (priv->cfg.state_interval_s == 0) {
        gf_log(this->name, GF_LOG_INFO, "virtcache state-interval is 0: counts are neither saved nor restored");
        return;
    }
    dir = vc_brick_directory(this);
    if (!dir) {
        gf_log(this->name, GF_LOG_WARNING, "virtcache found no brick directory below it: counts are not saved");
        return;
    }
    n = strlen(dir) + sizeof(VC_STATE_FILE);
    priv->state_path = GF_MALLOC(n, gf_vc_mt_value);
    if (!priv->state_path)
        return;
    snprintf(priv->state_path, n, "%s%s", dir, VC_STATE_FILE);
    vc_state_load(this, priv, priv->cfg.memory_limit);
    if (gf_thread_create(&priv->saver, NULL, vc_saver, this, "vcsave") == 0)
        priv->saver_started = 1;
    else
        gf_log(this->name, GF_LOG_WARNING, "virtcache could not start its saving thread: counts are saved at fini only");
}

/* Initialises the brick's locks; 0, or -1 with none of them left initialised. */
static int vc_priv_locks_init(vc_priv_t *priv)
{
    pthread_mutex_t *locks[] = {&priv->lock, &priv->queue_lock, &priv->det_lock, &priv->save_lock, &priv->saver_lock};
    size_t n = sizeof(locks) / sizeof(locks[0]);
    size_t i;

    for (i = 0; i < n; i++)
        if (pthread_mutex_init(locks[i], NULL) != 0)
            break;
    if (i == n && pthread_cond_init(&priv->saver_wake, NULL) == 0)
        return 0;
    while (i-- > 0)
        pthread_mutex_destroy(locks[i]);
    return -1;
}

int32_t vc_init(xlator_t *this)
{
    vc_priv_t *priv = NULL;
    vc_config_t cfg = vc_defaults;

    if (!this->children || this->children->next) {
        gf_log(this->name, GF_LOG_ERROR, "virtcache needs exactly one child translator");
        return -1;
    }
    priv = GF_CALLOC(1, sizeof(*priv), gf_vc_mt_priv);
    if (!priv)
        return -1;
    if (vc_priv_locks_init(priv) != 0) {
        GF_FREE(priv);
        return -1;
    }
    priv->clock_start_us = now_us();
    priv->queue_changed_us = priv->clock_start_us;
    priv->det_last_us = priv->clock_start_us;
    if (vc_read_options(this, this->options, &cfg, 1) != 0) {
        /* A bad value must not keep the brick from serving: log it, count it, use the defaults. */
        gf_log(this->name, GF_LOG_ERROR, "invalid virtcache option; using the defaults");
        cfg = vc_defaults;
        priv->config_errors++;
    }
    priv->cfg = cfg;
    priv->alloc.calloc_fn = vc_calloc;
    priv->alloc.free_fn = vc_free;
    priv->alloc.budget_used = &priv->budget_used;
    priv->alloc.budget_limit = cfg.memory_limit;
    this->private = priv;
    vc_log_config(this, "loaded", &cfg);
    vc_state_start(this, priv);
    return 0;
}

int32_t vc_reconfigure(xlator_t *this, dict_t *options)
{
    vc_priv_t *priv = this->private;
    vc_config_t cfg;

    if (!priv)
        return -1;
    pthread_mutex_lock(&priv->lock);
    cfg = priv->cfg;
    pthread_mutex_unlock(&priv->lock);
    if (vc_read_options(this, options, &cfg, 0) != 0) {
        gf_log(this->name, GF_LOG_ERROR, "invalid virtcache option; keeping the current configuration");
        pthread_mutex_lock(&priv->lock);
        priv->config_errors++;
        pthread_mutex_unlock(&priv->lock);
        return -1;
    }
    pthread_mutex_lock(&priv->lock);
    priv->cfg = cfg;
    __atomic_store_n(&priv->alloc.budget_limit, cfg.memory_limit, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&priv->lock);
    vc_log_config(this, "reconfigured", &cfg);
    return 0;
}

void vc_fini(xlator_t *this)
{
    vc_priv_t *priv = this->private;
    if (!priv)
        return;
    pthread_mutex_lock(&priv->saver_lock);
    priv->stopping = 1;
    pthread_cond_signal(&priv->saver_wake);
    pthread_mutex_unlock(&priv->saver_lock);
    if (priv->saver_started)
        pthread_join(priv->saver, NULL);
    vc_state_save(this, priv);
    vc_pending_free_all(priv);
    GF_FREE(priv->state_path);
    while (priv->files)
        vc_file_destroy(priv, priv->files);
    this->private = NULL;
    pthread_cond_destroy(&priv->saver_wake);
    pthread_mutex_destroy(&priv->saver_lock);
    pthread_mutex_destroy(&priv->save_lock);
    pthread_mutex_destroy(&priv->det_lock);
    pthread_mutex_destroy(&priv->queue_lock);
    pthread_mutex_destroy(&priv->lock);
    GF_FREE(priv);
}

/* Statedump (gluster volume statedump) runs on its own thread while fops go on, and holds the inode table's lock
 * while it visits files: every lock here is only tried, a busy one is reported in place of what it guards, and
 * nothing is written to the dump while a lock is held, so a dump never stalls or deadlocks the brick. */
#define VC_DUMP_BUSY "(busy: a lock is held; left out of this dump)"

static int32_t vc_dump_priv(xlator_t *this)
{
    vc_priv_t *priv = this->private;
    vc_config_t cfg;
    uint64_t files = 0, untracked = 0, config_errors = 0, pending = 0, inflight = 0;
    double depth = 0;
    int have_cfg, have_pending, have_inflight, have_depth;

    if (!priv)
        return 0;
    if ((have_cfg = pthread_mutex_trylock(&priv->lock) == 0)) {
        cfg = priv->cfg;
        files = priv->file_count;
        untracked = priv->untracked_files;
        config_errors = priv->config_errors;
        pthread_mutex_unlock(&priv->lock);
    }
    if ((have_pending = pthread_mutex_trylock(&priv->save_lock) == 0)) {
        for (vc_pending_t *p = priv->pending; p; p = p->next)
            pending++;
        pthread_mutex_unlock(&priv->save_lock);
    }
    if ((have_inflight = pthread_mutex_trylock(&priv->queue_lock) == 0)) {
        inflight = priv->inflight;
        pthread_mutex_unlock(&priv->queue_lock);
    }
    if ((have_depth = pthread_mutex_trylock(&priv->det_lock) == 0)) {
        depth = priv->det_queue_depth;
        pthread_mutex_unlock(&priv->det_lock);
    }

    gf_proc_dump_add_section("xlator.%s.priv", this->type);
    gf_proc_dump_write("xlator", "%s", this->name);
    if (have_cfg) {
        gf_proc_dump_write("block_size", "%" PRIu64, cfg.block_size);
        gf_proc_dump_write("window_s", "%" PRIu64, cfg.window_s);
        gf_proc_dump_write("cache_size", "%" PRIu64, cfg.cache_size);
        gf_proc_dump_write("top_n", "%" PRIu64, top_n_of(&cfg));
        gf_proc_dump_write("bloom_fpr", "%g", cfg.bloom_fpr);
        gf_proc_dump_write("max_blocks_per_file", "%" PRIu64, cfg.max_blocks_per_file);
        gf_proc_dump_write("max_files", "%" PRIu64, cfg.max_files);
        gf_proc_dump_write("memory_limit", "%" PRIu64, cfg.memory_limit);
        gf_proc_dump_write("max_filter_size", "%" PRIu64, cfg.max_filter_size);
        gf_proc_dump_write("count_writes", "%s", cfg.count_writes ? "on" : "off");
        gf_proc_dump_write("detector_interval_ms", "%" PRIu64, cfg.detector_interval_ms);
        gf_proc_dump_write("detector_samples", "%" PRIu64, cfg.detector_samples);
        gf_proc_dump_write("detector_parallel_io", "%" PRIu64, cfg.detector_parallel_io);
        gf_proc_dump_write("detector_low_load_depth", "%" PRIu64, cfg.detector_low_load_depth);
        gf_proc_dump_write("state_interval_s", "%" PRIu64, cfg.state_interval_s);
        gf_proc_dump_write("files", "%" PRIu64, files);
        gf_proc_dump_write("untracked_files", "%" PRIu64, untracked);
        gf_proc_dump_write("config_errors", "%" PRIu64, config_errors);
    } else {
        gf_proc_dump_write("config", "%s", VC_DUMP_BUSY);
    }
    gf_proc_dump_write("memory_bytes", "%" PRIu64, __atomic_load_n(&priv->budget_used, __ATOMIC_RELAXED));
    /* state_path is set at init and freed at fini only. */
    gf_proc_dump_write("state_file", "%s", priv->state_path ? priv->state_path : "(none: counts are not saved)");
    gf_proc_dump_write("state_saves", "%" PRIu64, __atomic_load_n(&priv->state_saves, __ATOMIC_RELAXED));
    gf_proc_dump_write("state_errors", "%" PRIu64, __atomic_load_n(&priv->state_errors, __ATOMIC_RELAXED));
    gf_proc_dump_write("restored_files", "%" PRIu64, __atomic_load_n(&priv->restored_files, __ATOMIC_RELAXED));
    if (have_pending)
        gf_proc_dump_write("pending_files", "%" PRIu64, pending);
    else
        gf_proc_dump_write("pending_files", "%s", VC_DUMP_BUSY);
    if (have_inflight)
        gf_proc_dump_write("inflight", "%" PRIu64, inflight);
    else
        gf_proc_dump_write("inflight", "%s", VC_DUMP_BUSY);
    if (have_depth)
        gf_proc_dump_write("queue_depth", "%.3f", depth);
    else
        gf_proc_dump_write("queue_depth", "%s", VC_DUMP_BUSY);
    return 0;
}

/* One section per tracked file, written by the inode table's dump with the table's lock held: the path is read
 * with __inode_path, which takes no lock. */
static int32_t vc_dump_inodectx(xlator_t *this, inode_t *inode)
{
    vc_priv_t *priv = this->private;
    vc_file_t *f = NULL;
    uint64_t v = 0;
    vc_file_counts_t fc;
    vc_counter_t counter; /* only its sizes are read: its table belongs to the file */
    vc_bloom_t bloom;     /* likewise */
    vc_slot_t top[VC_TOP_LIST];
    uint32_t ntop = 0;
    uint64_t bloom_failures = 0, window_age_ms = 0;
    int saved = 0, have_counts, have_det;
    vc_det_t det;
    double device_s = 0, arrivals = 0;
    char top_text[VC_TOP_LIST * 42 + 1];
    char *path = NULL;

    if (!priv || inode_ctx_get(inode, this, &v) != 0 || v == 0)
        return 0;
    f = (vc_file_t *)(uintptr_t)v;
    if ((have_det = pthread_mutex_trylock(&priv->det_lock) == 0)) {
        det = f->det;
        device_s = f->det_device_s;
        arrivals = f->det_arrivals_per_s;
        pthread_mutex_unlock(&priv->det_lock);
    }
    if ((have_counts = pthread_mutex_trylock(&f->lock) == 0)) {
        uint64_t mono = now_ms(CLOCK_MONOTONIC);
        vc_file_counts(f, &fc);
        counter = f->counter;
        bloom = f->bloom;
        bloom_failures = f->bloom_failures;
        saved = f->saved;
        window_age_ms = mono > f->window_start_mono_ms ? mono - f->window_start_mono_ms : 0;
        ntop = vc_counter_top(&f->counter, top, VC_TOP_LIST);
        pthread_mutex_unlock(&f->lock);
    }

    gf_proc_dump_add_section("xlator.%s.file", this->type);
    gf_proc_dump_write("gfid", "%s", uuid_utoa(inode->gfid));
    if (__inode_path(inode, NULL, &path) >= 0 && path)
        gf_proc_dump_write("path", "%s", path);
    GF_FREE(path);
    if (have_counts) {
        gf_proc_dump_write("block_size", "%" PRIu32, fc.block_size);
        gf_proc_dump_write("epoch", "%" PRIu64, fc.epoch);
        gf_proc_dump_write("window_start_ms", "%" PRIu64, fc.window_start_real_ms);
        gf_proc_dump_write("window_age_ms", "%" PRIu64, window_age_ms);
        gf_proc_dump_write("reads", "%" PRIu64, fc.reads);
        gf_proc_dump_write("writes", "%" PRIu64, fc.writes);
        gf_proc_dump_write("read_bytes", "%" PRIu64, fc.read_bytes);
        gf_proc_dump_write("write_bytes", "%" PRIu64, fc.write_bytes);
        gf_proc_dump_write("window_reads", "%" PRIu64, fc.window_reads);
        gf_proc_dump_write("window_writes", "%" PRIu64, fc.window_writes);
        gf_proc_dump_write("window_blocks", "%" PRIu32, counter.used);
        gf_proc_dump_write("window_evictions", "%" PRIu64, counter.evictions);
        gf_proc_dump_write("window_skipped_blocks", "%" PRIu64, counter.skipped_blocks);
        gf_proc_dump_write("table_slots", "%" PRIu32, counter.cap);
        gf_proc_dump_write("bloom_epoch", "%" PRIu64, bloom.bits ? bloom.epoch : 0);
        gf_proc_dump_write("bloom_n", "%" PRIu64, bloom.bits ? bloom.n_inserted : 0);
        gf_proc_dump_write("bloom_m_bits", "%" PRIu64, bloom.bits ? bloom.m_bits : 0);
        gf_proc_dump_write("bloom_k", "%u", bloom.bits ? (unsigned)bloom.k : 0u);
        gf_proc_dump_write("bloom_failures", "%" PRIu64, bloom_failures);
        gf_proc_dump_write("saved", "%s", saved ? "yes" : "no");
        gf_proc_dump_write("top", "%s",
                           vc_format_top(top, ntop, top_text, sizeof(top_text)) >= 0 ? top_text : "(does not fit)");
    } else {
        gf_proc_dump_write("counts", "%s", VC_DUMP_BUSY);
    }
    gf_proc_dump_write("ops", "%" PRIu64, __atomic_load_n(&f->ops, __ATOMIC_RELAXED));
    gf_proc_dump_write("completed", "%" PRIu64, __atomic_load_n(&f->completed, __ATOMIC_RELAXED));
    if (have_det) {
        gf_proc_dump_write("state", "%s", vc_det_state_name(det.state));
        gf_proc_dump_write("evaluations", "%" PRIu64, det.evaluations);
        gf_proc_dump_write("violations", "%" PRIu32, det.violations);
        gf_proc_dump_write("p90_us", "%.1f", det.p90 * 1e6);
        gf_proc_dump_write("low_load_p90_us", "%.1f", det.low_load_p90 * 1e6);
        gf_proc_dump_write("device_us", "%.1f", device_s * 1e6);
        gf_proc_dump_write("arrivals_per_s", "%.2f", arrivals);
    } else {
        gf_proc_dump_write("state", "%s", VC_DUMP_BUSY);
    }
    return 0;
}

int32_t vc_mem_acct_init(xlator_t *this)
{
    return xlator_mem_acct_init(this, gf_vc_mt_end + 1);
}

struct xlator_fops vc_fops = {
    .readv = vc_readv,
    .writev = vc_writev,
    .getxattr = vc_getxattr,
    .fgetxattr = vc_fgetxattr,
    .setxattr = vc_setxattr,
    .fsetxattr = vc_fsetxattr,
    .removexattr = vc_removexattr,
    .fremovexattr = vc_fremovexattr,
};

struct xlator_cbks vc_cbks = {
    .forget = vc_forget,
};

struct xlator_dumpops vc_dumpops = {
    .priv = vc_dump_priv,
    .inodectx = vc_dump_inodectx,
};

struct volume_options vc_options[] = {
    {.key = {"block-size"},
     .type = GF_OPTION_TYPE_SIZET,
     .min = 512,
     .max = 64 * 1024 * 1024,
     .default_value = "65536",
     .description = "Bytes per block: a request [off, off+len) counts one access to each block it touches.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"window"},
     .type = GF_OPTION_TYPE_TIME,
     .min = 1,
     .max = 86400,
     .default_value = "600",
     .description = "Seconds per counting window; at its end the top-N filter is rebuilt and the counts reset.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"cache-size"},
     .type = GF_OPTION_TYPE_SIZET,
     .default_value = "17179869184",
     .description = "Cache bytes per file; top-N = cache-size / block-size unless top-n is set.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"top-n"},
     .type = GF_OPTION_TYPE_INT,
     .default_value = "0",
     .description = "Blocks per filter; 0 derives it from cache-size.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"bloom-fpr"},
     .type = GF_OPTION_TYPE_DOUBLE,
     .min = 0.0001,
     .max = 0.5,
     .default_value = "0.01",
     .description = "Target false-positive rate of the filter.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"max-blocks-per-file"},
     .type = GF_OPTION_TYPE_INT,
     .min = 1024,
     .max = 1073741824,
     .default_value = "524288",
     .description = "Most distinct blocks counted per file and window (16 bytes each); then the least counted "
                    "nearby block is replaced.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"max-files"},
     .type = GF_OPTION_TYPE_INT,
     .min = 1,
     .max = 1048576,
     .default_value = "1024",
     .description = "Most files tracked at once; further files are not counted.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"memory-limit"},
     .type = GF_OPTION_TYPE_SIZET,
     .min = 1048576,
     .max = 68719476736.0,
     .default_value = "268435456",
     .description = "Bytes all counting tables and filters of the brick may use together.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"max-filter-size"},
     .type = GF_OPTION_TYPE_SIZET,
     .min = 64,
     .max = 1073741824,
     .default_value = "8388608",
     .description = "Largest filter in bytes; fewer of the hottest blocks go in if top-N would need more.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"count-writes"},
     .type = GF_OPTION_TYPE_BOOL,
     .default_value = "on",
     .description = "Count written blocks as accesses too.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"detector-interval"},
     .type = GF_OPTION_TYPE_INT,
     .min = 10,
     .max = 60000,
     .default_value = "1000",
     .description = "Milliseconds per interference-detector sample: each file's arrivals, service time and the "
                    "brick's queue depth over it give one predicted response time.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"detector-samples"},
     .type = GF_OPTION_TYPE_INT,
     .min = 1,
     .max = VC_DET_MAX_SAMPLES,
     .default_value = "30",
     .description = "Samples per detector evaluation: the p90 of this many predictions is compared with the p90 "
                    "of as many made at low load.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"detector-parallel-io"},
     .type = GF_OPTION_TYPE_INT,
     .min = 1,
     .max = 1024,
     .default_value = "16",
     .description = "n of the detector's model: how many I/Os the brick's device serves in parallel (16 for a RAID "
                    "array or SSD; about the brick's cores when its files are served from memory).",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"detector-low-load-depth"},
     .type = GF_OPTION_TYPE_INT,
     .min = 1,
     .max = 1024,
     .default_value = "4",
     .description = "A sample whose average queue depth at the brick is below this is low load and may become the "
                    "baseline predictions are compared with (4 for a 16-way device, as in the thesis).",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {"state-interval"},
     .type = GF_OPTION_TYPE_INT,
     .min = 0,
     .max = 86400,
     .default_value = "30",
     .description = "Seconds between saves of every file's counts and filter to <brick>/.glusterfs/virtcache.state, "
                    "read back when the brick starts; 0 at brick start neither saves nor restores.",
     .op_version = {1},
     .flags = OPT_FLAG_SETTABLE},
    {.key = {NULL}},
};

/* The only exported symbol: glusterfsd looks the translator up by it. */
__attribute__((visibility("default"))) xlator_api_t xlator_api = {
    .init = vc_init,
    .fini = vc_fini,
    .reconfigure = vc_reconfigure,
    .mem_acct_init = vc_mem_acct_init,
    .op_version = {GD_OP_VERSION_10_0},
    .fops = &vc_fops,
    .cbks = &vc_cbks,
    .dumpops = &vc_dumpops,
    .options = vc_options,
    .identifier = "virtcache",
    .category = GF_EXPERIMENTAL,
};
