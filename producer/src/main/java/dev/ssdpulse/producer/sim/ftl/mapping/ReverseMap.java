package dev.ssdpulse.producer.sim.ftl.mapping;

/**
 * Physical slot to the logical unit whose valid copy it holds, which GC needs to relocate a victim's valid
 * units. Invalidations by host writes and TRIM are recorded (a store, which costs far less than the load of
 * checking each victim slot against the forward map); GC copies out of a victim are not, as the victim is
 * erased (and forgotten) right after.
 */
interface ReverseMap {
    /** {@code lpn} was written to {@code ppn} (host write or GC copy). */
    void recordWrite(int ppn, int lpn);

    /** The copy in {@code ppn} is no longer valid (overwritten elsewhere or trimmed). */
    void recordInvalidated(int ppn);

    /** GC is about to read the owners of {@code block}'s slots. */
    void prepare(int block);

    /** The unit whose valid copy is in {@code ppn} (of a block passed to {@link #prepare}), or -1. */
    int ownerOf(int ppn);

    /**
     * Whether {@code ppn} holds the valid copy of {@code lpn}, for any block (not only one passed to
     * {@link #prepare}): GC checks the units of a victim it cleans page by page between host writes.
     */
    boolean holds(int ppn, int lpn);

    /**
     * GC has read {@code block}'s owners ({@link #ownerOf}) and checks them with {@link #holds} from now on: the owners
     * need not be kept until the block is erased.
     */
    void listed(int block);

    /** {@code block} was erased: its slots own nothing until rewritten. */
    void onErased(int block);
}
