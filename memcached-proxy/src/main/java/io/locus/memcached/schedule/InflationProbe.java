package io.locus.memcached.schedule;

/**
 * Whether the levels below one service level should inflate this epoch: only while that level is refused above its
 * bound for reasons lower levels can cause, and only while inflating them is seen to help (decision 10b of DESIGN.md).
 *
 * <p>A streak starts with the first epoch over the bound: the lower levels inflate, and that epoch's refused fraction
 * is the reference. Every {@value #BLOCK_EPOCHS} epochs the fraction over the block is compared with the reference:
 * while inflating, a fall by less than a quarter means the inflation is not helping, and the
 * lower levels decay instead; while decaying, a rise by more than a quarter means it was helping, and they inflate again.
 * The block's fraction becomes the next reference. An epoch within the bound ends the streak (the lower levels decay).
 * Pure state, no clock: the caller calls {@link #epoch} once per epoch.
 */
final class InflationProbe {
    static final int BLOCK_EPOCHS = 2;
    static final double MIN_CHANGE = 0.25;

    private final double bound;
    private boolean streak;
    private boolean inflating;
    private double reference;
    private long blockOffers;
    private long blockRefused;
    private int blockEpochs;

    /** @param bound the level's reject bound, a fraction of its hard offers */
    InflationProbe(double bound) {
        this.bound = bound;
    }

    /**
     * Feeds one epoch of the level's hard offers.
     *
     * @param offers hard offers of the epoch
     * @param refused those refused for a reason lower levels' work can cause ({@link OfferOutcome#LOWER_LOAD},
     *     {@link OfferOutcome#OTHER})
     * @return true if the lower levels should inflate this epoch, false if they should decay
     */
    boolean epoch(long offers, long refused) {
        double fraction = offers == 0 ? 0 : (double) refused / offers;
        if (fraction <= bound) {
            streak = false;
            return false;
        }
        if (!streak) {
            streak = true;
            inflating = true;
            reference = fraction;
            blockOffers = 0;
            blockRefused = 0;
            blockEpochs = 0;
            return true;
        }
        blockOffers += offers;
        blockRefused += refused;
        if (++blockEpochs == BLOCK_EPOCHS) {
            double blockFraction = (double) blockRefused / blockOffers;
            if (inflating && blockFraction > reference * (1 - MIN_CHANGE)) {
                inflating = false;
            } else if (!inflating && blockFraction > reference * (1 + MIN_CHANGE)) {
                inflating = true;
            }
            reference = blockFraction;
            blockOffers = 0;
            blockRefused = 0;
            blockEpochs = 0;
        }
        return inflating;
    }
}
