package io.locus.memcached.server;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TenantReloaderTest {
    private static String status(String sigIgn) {
        return "Name:\tjava\nSigBlk:\t0000000000000000\nSigIgn:\t" + sigIgn + "\nSigCgt:\t0000000000004000\n";
    }

    @Test
    void sigIgnMask_bitOneIsSighup() {
        assertTrue(TenantReloader.ignores(status("0000000000000001"), 1), "nohup's mask: SIGHUP ignored");
        assertFalse(TenantReloader.ignores(status("0000000000001000"), 1), "SIGPIPE (13) only");
        assertTrue(TenantReloader.ignores(status("0000000000001000"), 13));
        assertFalse(TenantReloader.ignores("Name:\tjava\n", 1), "no SigIgn line: nothing known to be ignored");
    }
}
