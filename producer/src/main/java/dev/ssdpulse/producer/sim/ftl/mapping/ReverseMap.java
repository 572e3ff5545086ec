package dev.ssdpulse.producer.sim.ftl.mapping;

/**
 * Physical slot to the logical unit last written there, which GC needs to relocate a victim's valid units.
 * An entry can be stale (the unit was rewritten elsewhere, trimmed, or the slot belongs to an erased block):
 * {@link MappingTable} checks it against the forward map (a slot is valid iff forward[owner] is that slot),
 * so invalidation never touches the reverse map.
 */
interface ReverseMap {
    /** {@code lpn} was written to {@code ppn} (host write or GC copy). */
    void recordWrite(int ppn, int lpn);

    /** GC is about to read the owners of {@code block}'s slots. */
    void prepare(int block);

    /** The unit last written to {@code ppn} (of a block passed to {@link #prepare}), or -1 if not known to be valid. */
    int ownerOf(int ppn);

    /** {@code block} was erased: its slots own nothing until rewritten. */
    void onErased(int block);
}
