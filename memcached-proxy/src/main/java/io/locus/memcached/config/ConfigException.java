package io.locus.memcached.config;

/** A configuration value is missing, unknown or out of range; the message names the key, the value and the rule. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
