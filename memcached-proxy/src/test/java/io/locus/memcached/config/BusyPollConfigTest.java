package io.locus.memcached.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BusyPollConfigTest {
    static final String MINIMAL = "pool:\n  servers: [\"127.0.0.1:11211:1\"]\n";

    private static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml, "test.yaml"))
                .getMessage();
    }

    @Test
    void busyPoll_isOffByDefaultAndParsed() {
        assertEquals(0, ConfigLoader.parse(MINIMAL, "test.yaml").server().busyPollMicros());
        assertEquals(
                50,
                ConfigLoader.parse(MINIMAL + "server: {busy_poll_us: 50}", "test.yaml")
                        .server()
                        .busyPollMicros());
    }

    @Test
    void busyPoll_outOfRangeOrNotANumber_isRefusedByName() {
        assertEquals(
                "server.busy_poll_us: 10001 is out of range (expected: 0 .. 10000)",
                error(MINIMAL + "server: {busy_poll_us: 10001}"));
        assertEquals(
                "server.busy_poll_us: -1 is out of range (expected: 0 .. 10000)",
                error(MINIMAL + "server: {busy_poll_us: -1}"));
        assertEquals(
                "server.busy_poll_us: \"50us\" (expected: a whole number)",
                error(MINIMAL + "server: {busy_poll_us: 50us}"));
    }
}
