package dev.ssdpulse.producer.sim.ftl.mapping;

/** One int per physical slot (4 bytes per slot): O(1) everywhere, for drives whose slots fit the heap budget. */
final class ArrayReverseMap implements ReverseMap {
    private final int[] ownerOfSlot;

    ArrayReverseMap(int physicalSlots) {
        this.ownerOfSlot = new int[physicalSlots];
    }

    static long bytesFor(long physicalSlots) {
        return 4 * physicalSlots;
    }

    @Override
    public void recordWrite(int ppn, int lpn) {
        ownerOfSlot[ppn] = lpn;
    }

    @Override
    public void prepare(int block) {
    }

    @Override
    public int ownerOf(int ppn) {
        return ownerOfSlot[ppn];
    }

    @Override
    public void onErased(int block) {
        // stale owners fail the forward-map check; a block is only cleaned once every slot was rewritten
    }
}
