package io.locus.memcached.tenant;

/**
 * The meta flags after a request's key as {@link TenantResolver} reads them, in request order: each flag's letter
 * (its first byte) and, for the hint tokens only, the rest of it as text.
 */
public interface HintFlags {
    /** A classic command's: no flags. */
    HintFlags NONE = new HintFlags() {
        @Override
        public int count() {
            return 0;
        }

        @Override
        public int letter(int i) {
            throw new IndexOutOfBoundsException("flag " + i + " of none");
        }

        @Override
        public String value(int i) {
            throw new IndexOutOfBoundsException("flag " + i + " of none");
        }
    };

    int count();

    /** The first byte of flag {@code i}, 0..255. */
    int letter(int i);

    /** Flag {@code i} after its letter, one char per byte. */
    String value(int i);
}
