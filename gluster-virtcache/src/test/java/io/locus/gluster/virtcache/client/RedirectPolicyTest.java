package io.locus.gluster.virtcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.gluster.virtcache.client.RedirectPolicy.Action;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RedirectPolicyTest {
    final RedirectPolicy.Tracker t = new RedirectPolicy.Tracker(new RedirectPolicy(3, 5, 1.1));

    @Test
    void redirectsOnTheVerdict_revertsOnlyAfterTheMinimumAndEnoughCalmPolls() {
        for (int i = 0; i < 4; i++) {
            assertEquals(Action.NONE, t.decide(RedirectState.NORMAL, false, 100));
        }
        assertEquals(100, t.baselineIops(), 1e-9);
        assertEquals(Action.START_REDIRECT, t.decide(RedirectState.NORMAL, true, 100));
        assertEquals(Action.WARM, t.decide(RedirectState.WARMING, true, 100));
        // Redirected, the brick soon says normal: that alone must not end the redirection.
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 100));
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 100));
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 100));
        // A peak of the disk's own I/O breaks the calm streak.
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 111));
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 110));
        assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, false, 90));
        // Three calm polls, more than five since the redirection, no interference: revert.
        assertEquals(Action.END_REDIRECT, t.decide(RedirectState.REDIRECTED, false, 100));
        assertEquals(Action.DRAIN, t.decide(RedirectState.DRAINING, true, 100));
        assertEquals(100, t.baselineIops(), 1e-9, "polls off the primary do not move the baseline");
    }

    @Test
    void noRevertWhileTheBrickStillReportsInterference() {
        t.decide(RedirectState.NORMAL, false, 10);
        t.decide(RedirectState.NORMAL, true, 10);
        for (int i = 0; i < 20; i++) {
            assertEquals(Action.NONE, t.decide(RedirectState.REDIRECTED, true, 1));
        }
        assertEquals(Action.END_REDIRECT, t.decide(RedirectState.REDIRECTED, false, 1));
    }

    @Test
    void badParametersAndRates_areRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RedirectPolicy(0, 1, 1.1))
                .getMessage()
                .contains("calmPolls 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RedirectPolicy(1, -1, 1.1))
                .getMessage()
                .contains("minRedirectPolls -1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new RedirectPolicy(1, 1, 0.5))
                .getMessage()
                .contains("calmFactor 0.5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> t.decide(RedirectState.NORMAL, false, -1))
                .getMessage()
                .contains("iops -1.0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> t.decide(RedirectState.NORMAL, false, Double.NaN))
                .getMessage()
                .contains("iops NaN"));
    }

    @Test
    void stateValue_isParsed_andAnUnknownOneNamed() {
        assertTrue(VirtCacheClient.interfered(bytes("state=interfered\nepoch=3\n"), "/vm.img"));
        assertFalse(VirtCacheClient.interfered(bytes("state=normal\nepoch=0\n"), "/vm.img"));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> VirtCacheClient.interfered(bytes("state=odd\n"), "/vm.img"));
        assertTrue(e.getMessage().contains("trusted.virtcache.state of /vm.img is \"state=odd\\n\""), e.getMessage());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
