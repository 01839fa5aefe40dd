package io.locus.memcached.tenant;

import java.util.List;

/**
 * The tenant and deadline of one request, and the meta flags to forward (the hint tokens removed).
 *
 * @param tenant the tenant id; {@code default} when nothing names one
 * @param deadline the deadline, never null; {@link Deadline#microsOr} with the nominal deadline gives microseconds
 * @param forwardedFlags the meta flags without the tenant and deadline tokens (empty for classic commands)
 */
public record Resolution(String tenant, Deadline deadline, List<String> forwardedFlags) {}
