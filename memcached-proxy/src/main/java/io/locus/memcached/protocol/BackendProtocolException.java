package io.locus.memcached.protocol;

/** A backend sent bytes that are not a memcached reply; its connection cannot be trusted any more and is closed. */
public final class BackendProtocolException extends RuntimeException {
    public BackendProtocolException(String message) {
        super(message);
    }
}
