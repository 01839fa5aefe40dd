package io.locus.bench.virtcache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TranslatorShareTest {

    private static final String VC = "/usr/lib/x86_64-linux-gnu/glusterfs/10.3/xlator/user/virtcache.so";
    private static final String GF = "/usr/lib/x86_64-linux-gnu/libglusterfs.so.0.0.1";
    private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";
    private static final String POSIX = "/usr/lib/x86_64-linux-gnu/glusterfs/10.3/xlator/storage/posix.so";

    /** One sample: its frames, innermost first, as perf script prints them. */
    private static String sample(String... frames) {
        StringBuilder b = new StringBuilder();
        for (String f : frames) {
            b.append("\t    ").append(f).append('\n');
        }
        return b.append('\n').toString();
    }

    @Test
    void samplesGoToTheInnermostTranslatorWithLibcKernelAndGlusterHelpersCountingForTheirCaller() {
        String script = sample("6bb9 add_block (" + VC + " (deleted))", "7a vc_readv (" + VC + " (deleted))")
                + sample(
                        "8c3a8 lll_mutex_lock_optimized (inlined)",
                        "8c3a8 ___pthread_mutex_lock (" + LIBC + ")",
                        "ffffffff81000000 futex_wait ([kernel.kallsyms])",
                        "3c3c vc_account (" + VC + ")")
                + sample("4a10e __gf_calloc (" + GF + ")", "2070 vc_readv (" + VC + ")")
                + sample("b00 __vdso_clock_gettime ([vdso])", "45c0 now_us (" + VC + ")")
                + sample("16e0ba __memset_avx512_unaligned_erms (" + LIBC + ")", "75e9 posix_readv (" + POSIX + ")")
                + sample("57bcf synctask_new1 (" + GF + ")", "2070 vc_readv (" + VC + ")")
                + sample("ffffffff81000000 finish_task_switch ([kernel.kallsyms])");
        TranslatorShare share = TranslatorShare.of(script, "virtcache.so");
        assertEquals(7, share.samples());
        assertEquals(4, share.owned());
        assertEquals(
                Map.of(
                        TranslatorShare.OWN_CODE, 1L,
                        TranslatorShare.MUTEXES, 1L,
                        TranslatorShare.ALLOCATOR, 1L,
                        TranslatorShare.CLOCK, 1L),
                share.byKind());
        assertEquals(4 * 100.0 / 7, share.percent(), 1e-9);
    }

    @Test
    void noSamplesIsNoShare() {
        TranslatorShare share = TranslatorShare.of("", "virtcache.so");
        assertEquals(0, share.samples());
        assertEquals(0.0, share.percent());
    }
}
