package io.locus.memcached.protocol;

/**
 * A malformed request, already answered: the decoder has consumed it and resynchronised at the next line.
 *
 * @param replyLine the line to send back, without {@code \r\n}, e.g. {@code CLIENT_ERROR bad command line format}
 * @param suppressed whether the client asked for no reply ({@code noreply} on a classic command; memcached then sends
 *     nothing, not even errors)
 * @param closeConnection whether the stream cannot be resynchronised; the connection is closed after the reply
 * @param detail what exactly was wrong, with the actual and the expected value, for the log
 */
public record RequestError(String replyLine, boolean suppressed, boolean closeConnection, String detail)
        implements DecodedRequest {

    /** memcached's reply to an unknown command or a wrong number of tokens. */
    public static final String ERROR = "ERROR";
    /** memcached's reply to a bad key, a bad number or a bad length on a command line. */
    public static final String BAD_FORMAT = "CLIENT_ERROR bad command line format";
    /** memcached's reply when the data block does not end with {@code \r\n} where its declared length says. */
    public static final String BAD_DATA_CHUNK = "CLIENT_ERROR bad data chunk";
    /** memcached's reply to a value larger than its item size limit; the data block is skipped. */
    public static final String TOO_LARGE = "SERVER_ERROR object too large for cache";

    static RequestError of(String replyLine, String detail) {
        return new RequestError(replyLine, false, false, detail);
    }
}
