package io.locus.memcached.bench;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Synthetic keys: each tenant has its own key space of {@code keysPerTenant} ids, chosen with YCSB's scrambled
 * Zipfian ({@link ScrambledZipf}); a request picks its tenant by the tenants' shares. Ids are written as the hex of
 * a bijective 64-bit mix, so keys differ in many characters (twemproxy's fnv1a_64 + ketama clusters keys that differ
 * only in a short suffix; see {@code integration-tests/memcached/README.md}).
 */
public final class ZipfKeys implements KeySource {
    private final List<TenantProfile> tenants;
    private final long keysPerTenant;
    private final ScrambledZipf zipf;
    private final double[] cumulativeShare;

    /**
     * @param tenants at least one tenant
     * @param keysPerTenant distinct keys per tenant, >= 1
     */
    public ZipfKeys(List<TenantProfile> tenants, long keysPerTenant) {
        if (tenants.isEmpty()) {
            throw new IllegalArgumentException("tenants: empty (expected: at least one tenant)");
        }
        this.tenants = List.copyOf(tenants);
        this.keysPerTenant = keysPerTenant;
        this.zipf = new ScrambledZipf(keysPerTenant);
        double total = tenants.stream().mapToDouble(TenantProfile::share).sum();
        cumulativeShare = new double[tenants.size()];
        double sum = 0;
        for (int i = 0; i < tenants.size(); i++) {
            sum += tenants.get(i).share() / total;
            cumulativeShare[i] = sum;
        }
        cumulativeShare[tenants.size() - 1] = 1.0;
    }

    @Override
    public List<TenantProfile> tenants() {
        return tenants;
    }

    @Override
    public String describe() {
        return "YCSB scrambled Zipfian (theta 0.99), " + keysPerTenant + " keys per tenant x " + tenants.size()
                + " tenants; ETC value sizes";
    }

    @Override
    public long distinctKeys() {
        return keysPerTenant * tenants.size();
    }

    @Override
    public void forEachKey(Consumer<Access> visitor) {
        for (int t = 0; t < tenants.size(); t++) {
            for (long id = 0; id < keysPerTenant; id++) {
                visitor.accept(access(t, id));
            }
        }
    }

    /** The access for id {@code id} of tenant {@code tenant}. */
    Access access(int tenant, long id) {
        TenantProfile profile = tenants.get(tenant);
        long name = KeyHash.mix(id * 31 + tenant + 1);
        DeadlineRange range = profile.rangeOf(name);
        return new Access(tenant, Access.keyOf(profile.name(), range, name), range, ValueSizes.bytesOf(name));
    }

    @Override
    public Cursor cursor(int stream, int streams, long seed) {
        SplittableRandom random = new SplittableRandom(KeyHash.mix(seed * 1_000_003L + stream));
        return () -> {
            double u = random.nextDouble();
            int t = 0;
            while (u >= cumulativeShare[t]) {
                t++;
            }
            return access(t, zipf.next(random));
        };
    }
}
