package io.locus.memcached.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TenantResolverTest {
    static final TenantSpec SHOP = new TenantSpec("shop", List.of("shop:"), 2, "gold", Deadline.hard(50_000));
    static final TenantSpec BATCH = new TenantSpec("batch", List.of("an:"), 1, "bronze", Deadline.nominalBestEffort());
    static final List<DeadlineRule> RULES = List.of(
            new DeadlineRule("shop:search:", Deadline.hard(15_000)),
            new DeadlineRule("shop:related:", Deadline.bestEffort(400_000)));

    /** Meta flags as the resolver reads them, from their text. */
    static HintFlags flags(String... flags) {
        return new HintFlags() {
            @Override
            public int count() {
                return flags.length;
            }

            @Override
            public int letter(int i) {
                return flags[i].charAt(0);
            }

            @Override
            public String value(int i) {
                return flags[i].substring(1);
            }
        };
    }

    static TenantResolver resolver(boolean auth, boolean trust) {
        return new TenantResolver(new TenantPolicy(
                'P', 'L', trust, auth, Map.of("alice", Set.of("shop")), List.of(SHOP, BATCH), RULES, 1_000_000));
    }

    @Test
    void noHints_defaultTenant_bestEffortNominal() throws Exception {
        Resolution r = resolver(false, true).resolve(new Session(null, null), "k", HintFlags.NONE);
        assertEquals("default", r.tenant());
        assertEquals(Deadline.bestEffort(1_000_000), r.deadline());
    }

    @Test
    void tokens_winAndAreStripped() throws Exception {
        Resolution r = resolver(false, true)
                .resolve(new Session("batch", null), "an:1", flags("v", "Pshop", "f", "L20ms", "t"));
        assertEquals("shop", r.tenant());
        assertEquals(Deadline.hard(20_000), r.deadline());
        assertEquals(1, r.tenantFlag());
        assertEquals(3, r.deadlineFlag());
        assertEquals(2, r.hintTokens());
    }

    @Test
    void untrustedTenantToken_isIgnoredButStillStripped() throws Exception {
        Resolution r = resolver(false, false).resolve(new Session(null, null), "an:1", flags("Pshop", "v"));
        assertEquals("batch", r.tenant());
        assertEquals(0, r.tenantFlag());
        assertEquals(-1, r.deadlineFlag());
    }

    @Test
    void keyPrefix_longestRuleWins_thenTenantDefault() throws Exception {
        TenantResolver res = resolver(false, true);
        Session s = new Session(null, null);
        assertEquals(
                Deadline.hard(15_000),
                res.resolve(s, "shop:search:x", HintFlags.NONE).deadline());
        assertEquals(
                Deadline.bestEffort(400_000),
                res.resolve(s, "shop:related:x", HintFlags.NONE).deadline());
        Resolution plain = res.resolve(s, "shop:cart:1", HintFlags.NONE);
        assertEquals("shop", plain.tenant());
        assertEquals(Deadline.hard(50_000), plain.deadline());
        assertEquals(
                Deadline.nominalBestEffort(),
                res.resolve(s, "an:9", HintFlags.NONE).deadline());
    }

    @Test
    void listener_isTheFallbackForTenantAndDeadline() throws Exception {
        Resolution r = resolver(false, true).resolve(new Session("batch", Deadline.hard(7_000)), "x", HintFlags.NONE);
        assertEquals("batch", r.tenant());
        // batch's own default (~) comes before the listener's default.
        assertEquals(Deadline.nominalBestEffort(), r.deadline());
        Resolution other =
                resolver(false, true).resolve(new Session("nobody", Deadline.hard(7_000)), "x", HintFlags.NONE);
        assertEquals(Deadline.hard(7_000), other.deadline());
    }

    @Test
    void dlctx_comesAfterTokensBeforePrefixes() throws Exception {
        Session s = new Session(null, null);
        s.context("batch", Deadline.hard(9_000));
        Resolution r = resolver(false, true).resolve(s, "shop:search:1", HintFlags.NONE);
        assertEquals("batch", r.tenant());
        assertEquals(Deadline.hard(9_000), r.deadline());
    }

    @Test
    void auth_userIsTheTenant_allowedTenantsOnly() throws Exception {
        TenantResolver res = resolver(true, true);
        Session s = new Session(null, null);
        s.authenticated("alice");
        assertEquals("alice", res.resolve(s, "an:1", HintFlags.NONE).tenant());
        assertEquals("shop", res.resolve(s, "k", flags("Pshop")).tenant());
        HintException e = assertThrows(HintException.class, () -> res.resolve(s, "k", flags("Pbatch")));
        assertEquals("CLIENT_ERROR tenant not allowed", e.replyLine());
        assertEquals("user \"alice\" named tenant \"batch\" (expected: one of [shop] or itself)", e.getMessage());
    }

    @Test
    void badTokens_getMemcachedsErrors() {
        TenantResolver res = resolver(false, true);
        Session s = new Session(null, null);
        assertEquals(
                "CLIENT_ERROR duplicate flag",
                assertThrows(HintException.class, () -> res.resolve(s, "k", flags("Pa", "Pb")))
                        .replyLine());
        assertEquals(
                "CLIENT_ERROR duplicate flag",
                assertThrows(HintException.class, () -> res.resolve(s, "k", flags("L1", "L2")))
                        .replyLine());
        HintException zero = assertThrows(HintException.class, () -> res.resolve(s, "k", flags("L0")));
        assertEquals("CLIENT_ERROR bad token in command line format", zero.replyLine());
        assertEquals("deadline \"0\" is below 1 us (expected: > 0)", zero.getMessage());
        assertEquals(
                "CLIENT_ERROR bad token in command line format",
                assertThrows(HintException.class, () -> res.resolve(s, "k", flags("P")))
                        .replyLine());
        assertEquals(
                "CLIENT_ERROR bad token in command line format",
                assertThrows(HintException.class, () -> res.resolve(s, "k", flags("Lfast")))
                        .replyLine());
    }

    @Test
    void deadlineSyntax_units() {
        assertEquals(Deadline.hard(20_000), Deadline.parse("20"));
        assertEquals(Deadline.hard(20_000), Deadline.parse("20ms"));
        assertEquals(Deadline.hard(250), Deadline.parse("250us"));
        assertEquals(Deadline.hard(1_500_000), Deadline.parse("1.5s"));
        assertEquals(Deadline.bestEffort(500_000), Deadline.parse("~500ms"));
        assertEquals(Deadline.nominalBestEffort(), Deadline.parse("~"));
        assertEquals(
                "deadline \"20m\" (expected: [~]<number>[us|ms|s], e.g. 20ms or ~500ms)",
                assertThrows(IllegalArgumentException.class, () -> Deadline.parse("20m"))
                        .getMessage());
    }

    @Test
    void samePrefixTwice_isAConfigError() {
        TenantSpec a = new TenantSpec("a", List.of("x:"), 1, "gold", null);
        TenantSpec b = new TenantSpec("b", List.of("x:"), 1, "gold", null);
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> new TenantResolver(
                        new TenantPolicy('P', 'L', true, false, Map.of(), List.of(a, b), List.of(), 1)));
        assertEquals(
                "prefix \"x:\" is mapped twice (to " + a + " and " + b + "; expected: each prefix once)",
                e.getMessage());
    }

    @Test
    void authFile_parsesMemcachedFormat() {
        AuthFile f = AuthFile.parse(List.of("alice:secret", "", "bob:p:w"), "auth");
        assertEquals(true, f.check("alice", "secret"));
        assertEquals(true, f.check("bob", "p:w"));
        assertEquals(false, f.check("alice", "wrong"));
        assertEquals(
                "auth:2: auth line without user (expected: user:password)",
                assertThrows(IllegalArgumentException.class, () -> AuthFile.parse(List.of("a:b", "nouser"), "auth"))
                        .getMessage());
    }
}
