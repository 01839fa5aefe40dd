package io.locus.memcached.config;

import io.locus.memcached.protocol.ProtocolLimits;

/**
 * What one client may send and keep in flight.
 *
 * @param protocol {@code limits.max_key_bytes}, {@code limits.max_line_bytes} and {@code max_item_size}
 * @param maxPipeline {@code limits.max_pipeline}: requests in flight per client connection
 * @param replyBudgetBytes {@code limits.reply_budget}: reply bytes in flight per client connection
 * @param maxPendingKeys {@code limits.max_pending_keys}: keys of retrievals in flight per client connection
 */
public record LimitsSection(ProtocolLimits protocol, int maxPipeline, long replyBudgetBytes, int maxPendingKeys) {}
