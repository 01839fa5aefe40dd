package io.locus.memcached.protocol;

/** The shape of the reply a backend sends to one request; {@link BackendResponseDecoder} needs it to find the end. */
public enum ReplyFormat {
    /** One line: {@code STORED}, {@code NOT_FOUND}, a number, {@code OK}, an error line. */
    LINE,
    /** {@code VALUE <key> <flags> <bytes> [<cas>]\r\n<data>\r\n} items, then {@code END}; or one error line. */
    VALUES,
    /** One meta status line; {@code VA <size> <flags>*} is followed by a data block. */
    META,
    /** Any meta or classic reply lines, ended by {@code MN}: the reply to a quiet request followed by {@code mn}. */
    UNTIL_MN
}
