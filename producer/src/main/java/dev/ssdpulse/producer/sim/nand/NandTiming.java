package dev.ssdpulse.producer.sim.nand;

/**
 * NAND array and bus timing: page read into the register (tR), page program (tPROG), block erase
 * (tBERS), and the channel (ONFI/Toggle bus) transfer rate in MB/s (10^6 bytes per second).
 */
public record NandTiming(long readNs, long programNs, long eraseNs, double channelMBps) {

    /** Nanoseconds to move {@code bytes} over one channel. */
    public long channelTransferNs(int bytes) {
        return (long) (bytes * 1000.0 / channelMBps);
    }
}
