package io.locus.memcached.tenant;

/** A request's tenant or deadline hint cannot be accepted; the client gets {@link #replyLine()}. */
public final class HintException extends Exception {
    private final String replyLine;

    /**
     * @param replyLine the line for the client, e.g. {@code CLIENT_ERROR tenant not allowed}
     * @param detail what was wrong, with the actual and expected values, for the log
     */
    public HintException(String replyLine, String detail) {
        super(detail);
        this.replyLine = replyLine;
    }

    public String replyLine() {
        return replyLine;
    }
}
