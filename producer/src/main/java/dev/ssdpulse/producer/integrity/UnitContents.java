package dev.ssdpulse.producer.integrity;

import java.io.IOException;

/**
 * The content of the target's units, as stamps: what the verification compares with the log. The device path reads
 * the target back ({@code ReadBack}, with the asynchronous engine); a simulated drive reports the stamp its model
 * holds for each unit. The verification never needs bytes, only {@link UnitStamp.Observation}s.
 */
public interface UnitContents {
    /**
     * Reports every unit of the extents, in ascending LBA order (extents come sorted and disjoint).
     *
     * @param extents  pairs (first LBA, unit count): {@code extents[2i]}, {@code extents[2i + 1]}
     * @param observer receives each unit; the observation object may be reused after the call returns
     */
    void read(long[] extents, Observer observer) throws IOException;

    @FunctionalInterface
    interface Observer {
        void unit(long lba, UnitStamp.Observation seen);
    }
}
