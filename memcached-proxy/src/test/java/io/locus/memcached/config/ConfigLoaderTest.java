package io.locus.memcached.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.locus.memcached.tenant.Deadline;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ConfigLoaderTest {
    static final String MINIMAL = "pool:\n  servers: [\"127.0.0.1:11211:1\"]\n";

    static String error(String yaml) {
        return assertThrows(ConfigException.class, () -> ConfigLoader.parse(yaml, "test.yaml"))
                .getMessage();
    }

    @Test
    void minimalConfig_getsEveryDefault() {
        ProxyConfig c = ConfigLoader.parse(MINIMAL, "test.yaml");
        Map<String, Object> values = ConfigLoader.scalars(new HashMap<>());
        for (ConfigKey k : ConfigKeys.ALL) {
            assertEquals(ConfigLoader.convert(k, k.defaultValue()), values.get(k.name()), k.name());
        }
        assertEquals(1_000_000, c.backend().timeoutMicros());
        assertEquals(1, c.backend().conns());
        assertEquals(
                Math.max(1, Runtime.getRuntime().availableProcessors() / 2),
                c.server().ioThreads());
        assertEquals(
                3,
                ConfigLoader.parse(MINIMAL + "io_threads: 3", "test.yaml")
                        .server()
                        .ioThreads());
        assertEquals(1 << 20, c.limits().protocol().maxItemSizeBytes());
        assertEquals(64L << 20, c.localCache().capacityBytes());
        assertEquals(2_000, c.localCache().baseMicros());
        assertEquals(0.10, c.deadline().targetMiss());
        assertEquals(ServerSection.Mode.FULL, c.server().mode());
        assertFalse(c.balance().active());
        assertEquals(List.of(new Listener("127.0.0.1", 11211, null, null)), c.listeners());
        assertEquals(List.of(new BackendAddress("127.0.0.1", 11211, 1, null)), c.servers());
    }

    @Test
    void localModeOff_unquoted_isOff() {
        // As the README writes it: YAML 1.1 reads the unquoted word as the boolean false.
        for (String off : List.of("off", "\"off\"", "no", "false")) {
            ProxyConfig c = ConfigLoader.parse(MINIMAL + "local:\n  mode: " + off + "\n", "test.yaml");
            assertFalse(c.localCache().enabled(), "local.mode: " + off);
        }
        assertTrue(ConfigLoader.parse(MINIMAL + "local: {mode: all}", "test.yaml")
                .localCache()
                .enabled());
    }

    @Test
    void fullConfig_parsesEverySection() {
        ProxyConfig c = ConfigLoader.parse("""
        listen: 0.0.0.0:22122
        listeners:
          - {port: 11212, tenant: batch, default_deadline: "~"}
        backend: {conns: 4, timeout: 250ms}
        pool:
          servers: ["10.0.0.1:11211:1 a", "10.0.0.2:11212:2"]
        auth: {enabled: true, file: /etc/locus/auth, allowed_tenants: {alice: [shop]}}
        tenants:
          - {id: shop, prefixes: ["shop:"], weight: 2, level: gold, default_deadline: 50ms}
        deadline_rules:
          - {prefix: "shop:search:", deadline: 15ms}
        """, "test.yaml");
        assertEquals(
                List.of(
                        new Listener("0.0.0.0", 22122, null, null),
                        new Listener("0.0.0.0", 11212, "batch", Deadline.nominalBestEffort())),
                c.listeners());
        assertEquals(4, c.backend().conns());
        assertEquals(250_000, c.backend().timeoutMicros());
        assertEquals(new BackendAddress("10.0.0.1", 11211, 1, "a"), c.servers().get(0));
        assertEquals(2, c.servers().get(1).weight());
        assertEquals(Set.of("shop"), c.tenant().allowedTenants().get("alice"));
        assertEquals(Deadline.hard(50_000), c.tenants().get(0).defaultDeadline());
        assertEquals(Deadline.hard(15_000), c.deadlineRules().get(0).deadline());
        assertTrue(c.tenantPolicy().authEnabled());
    }

    @Test
    void errors_nameTheKeyTheValueAndTheExpectation() {
        assertEquals(
                "backend.timeot: unknown key (expected: one of the keys in the README's configuration table; did"
                        + " you mean backend.timeout?)",
                error(MINIMAL + "backend: {timeot: 1s}"));
        assertEquals(
                "backend.timeout: \"1 sec\" (expected: a duration such as 250us, 20ms or 1s)",
                error(MINIMAL + "backend: {timeout: 1 sec}"));
        assertEquals("backend.conns: 0 is out of range (expected: 1 .. 64)", error(MINIMAL + "backend: {conns: 0}"));
        assertEquals("io_threads: \"many\" (expected: a whole number or auto)", error(MINIMAL + "io_threads: many"));
        assertEquals("backend.conns: \"auto\" (expected: a whole number)", error(MINIMAL + "backend: {conns: auto}"));
        assertEquals(
                "limits.max_key_bytes: 300 is out of range (expected: 1 .. 250)",
                error(MINIMAL + "limits: {max_key_bytes: 300}"));
        assertEquals(
                "max_item_size: \"1 megabyte\" (expected: a size such as 512, 64k, 1m or 1g)",
                error(MINIMAL + "max_item_size: 1 megabyte"));
        assertEquals(
                "local.mode: \"sometimes\" (expected: one of [all, hot_only, off])",
                error(MINIMAL + "local: {mode: sometimes}"));
        assertEquals(
                "local.mode: true (YAML reads an unquoted on, yes, true, off, no or false as a boolean; expected: one"
                        + " of [all, hot_only, off])",
                error(MINIMAL + "local: {mode: on}"));
        assertEquals(
                "classic.reject_mode: false (YAML reads an unquoted on, yes, true, off, no or false as a boolean;"
                        + " expected: one of [miss, error])",
                error(MINIMAL + "classic: {reject_mode: off}"));
        assertEquals(
                "hints.trust_tenant_token: \"yes please\" (expected: true or false)",
                error(MINIMAL + "hints: {trust_tenant_token: yes please}"));
        assertEquals(
                "pool.servers: missing (expected: a list of \"host:port:weight [name]\", at least one)",
                error("listen: 127.0.0.1:1"));
        assertEquals(
                "pool.servers[0]: \"127.0.0.1:11211\" (expected: host:port:weight [name], port 1..65535, weight >= 1,"
                        + " as in nutcracker)",
                error("pool: {servers: [\"127.0.0.1:11211\"]}"));
        assertEquals(
                "pool.servers[1]: 127.0.0.1:1 is listed twice (expected: each backend once)",
                error("pool: {servers: [\"127.0.0.1:1:1\", \"127.0.0.1:1:1\"]}"));
        assertEquals(
                "listen: \"localhost\" (expected: host:port with port 0..65535)", error(MINIMAL + "listen: localhost"));
        assertEquals(
                "tenants[0].wieght: unknown key (expected: one of [default_deadline, id, level, prefixes, weight])",
                error(MINIMAL + "tenants: [{id: a, wieght: 2}]"));
        assertEquals(
                "tenants[0].id: missing (expected: required in every tenants entry)",
                error(MINIMAL + "tenants: [{weight: 2}]"));
        assertEquals(
                "tenants[0].id: \"a b\" (expected: a tenant id of 1..64 of A-Z a-z 0-9 . _ -)",
                error(MINIMAL + "tenants: [{id: a b}]"));
        assertEquals(
                "deadline_rules[0].deadline: deadline \"fast\" (expected: [~]<number>[us|ms|s], e.g. 20ms or ~500ms)",
                error(MINIMAL + "deadline_rules: [{prefix: x, deadline: fast}]"));
        assertEquals(
                "auth.file: empty while auth.enabled is true (expected: path of a user:password file)",
                error(MINIMAL + "auth: {enabled: true}"));
        assertEquals(
                "tenants/deadline_rules/hints: hints.tenant_token and hints.deadline_token are both 'P' (expected:"
                        + " two different letters)",
                error(MINIMAL + "hints: {deadline_token: P}"));
        assertTrue(error("pool: [").startsWith("config test.yaml is not valid YAML: "));
        assertEquals("config test.yaml: top level is a \"hello\" (expected: a mapping of keys)", error("hello"));
    }

    @Test
    void units_durationsAndSizes() {
        assertEquals(250, ConfigLoader.parseDurationMicros("k", "250us"));
        assertEquals(20_000, ConfigLoader.parseDurationMicros("k", "20"));
        assertEquals(1_500_000, ConfigLoader.parseDurationMicros("k", "1.5s"));
        assertEquals(64 << 10, ConfigLoader.parseSizeBytes("k", "64k"));
        assertEquals(1 << 20, ConfigLoader.parseSizeBytes("k", "1MB"));
        assertEquals(512, ConfigLoader.parseSizeBytes("k", "512"));
    }
}
