package dev.ssdpulse.producer.device.engine;

/** Fills a slot's buffer with what a write carries, right before it is submitted. One per I/O thread. */
public interface WriteFiller {
    void fill(IoSlot slot, int sizeBytes);
}
