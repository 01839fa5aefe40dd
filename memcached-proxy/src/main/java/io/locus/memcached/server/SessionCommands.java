package io.locus.memcached.server;

import io.locus.memcached.protocol.Command;
import io.locus.memcached.protocol.MemcachedRequest;
import io.locus.memcached.stats.ProxyStats;
import io.locus.memcached.tenant.AuthFile;
import io.locus.memcached.tenant.Deadline;
import io.locus.memcached.tenant.HintException;
import io.locus.memcached.tenant.Session;
import io.locus.memcached.tenant.TenantResolver;
import io.locus.memcached.tenant.TenantSpec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The commands that change a client connection's session, answered by the proxy itself: text auth and {@code dlctx}. */
final class SessionCommands {
    private SessionCommands() {}

    /**
     * memcached's text auth: the first command must be {@code set <any> <flags> <exptime> <n>} with "user pass".
     * Returns the reply line; the caller releases the request.
     */
    static String authenticate(MemcachedRequest req, Session session, AuthFile auth, ProxyStats stats) {
        if (req.command() != Command.SET) {
            return "CLIENT_ERROR unauthenticated";
        }
        String[] userPass = req.data().toString(StandardCharsets.UTF_8).trim().split(" ", 2);
        if (userPass.length == 2 && auth.check(userPass[0], userPass[1])) {
            session.authenticated(userPass[0]);
            return "STORED";
        }
        stats.increment(ProxyStats.Counter.AUTH_FAILURES);
        return "CLIENT_ERROR authentication failure";
    }

    /** {@code dlctx [tenant=<id>] [deadline=<L syntax>] [reset]}: per-connection defaults, never forwarded. */
    static String dlctx(List<String> args, Session session, TenantResolver resolver) {
        String tenant = session.contextTenant();
        Deadline deadline = session.contextDeadline();
        for (String a : args) {
            if (a.equals("reset")) {
                tenant = null;
                deadline = null;
            } else if (a.startsWith("tenant=") && TenantSpec.isValidId(a.substring(7))) {
                tenant = a.substring(7);
                if (session.user() != null) {
                    try {
                        resolver.checkAllowed(session.user(), tenant);
                    } catch (HintException e) {
                        return e.replyLine();
                    }
                }
            } else if (a.startsWith("deadline=")) {
                try {
                    deadline = Deadline.parse(a.substring(9));
                } catch (IllegalArgumentException e) {
                    return Deadline.BAD_TOKEN;
                }
            } else {
                return "CLIENT_ERROR bad command line format";
            }
        }
        session.context(tenant, deadline);
        return "OK";
    }
}
