package dev.ssdpulse.producer.sim.nand;

/**
 * Physical organisation of the flash. Dies are numbered so that consecutive dies sit on different
 * channels (die d is on channel d % channels); plane p belongs to die p / planesPerDie; block b belongs to
 * plane b / blocksPerPlane.
 */
public record NandGeometry(
        int channels, int diesPerChannel, int planesPerDie, int blocksPerPlane, int pagesPerBlock, int pageSizeBytes) {

    /** The FTL maps 4 KiB units: the host's logical block granularity of every modern drive. */
    public static final int MAPPING_UNIT_BYTES = 4096;

    public int dies() {
        return channels * diesPerChannel;
    }

    public int planes() {
        return dies() * planesPerDie;
    }

    public int blocks() {
        return planes() * blocksPerPlane;
    }

    public long blockBytes() {
        return (long) pagesPerBlock * pageSizeBytes;
    }

    public long rawBytes() {
        return blockBytes() * blocks();
    }

    /** Mapping units an uncompressed page holds. */
    public int unitsPerPage() {
        return pageSizeBytes / MAPPING_UNIT_BYTES;
    }

    public int planeOfBlock(int block) {
        return block / blocksPerPlane;
    }

    public int dieOfPlane(int plane) {
        return plane / planesPerDie;
    }

    public int channelOfDie(int die) {
        return die % channels;
    }
}
