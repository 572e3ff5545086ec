package dev.ssdpulse.producer.device.guard;

import java.nio.file.Path;
import java.util.List;

/**
 * A target that passed the guard.
 *
 * @param path        as given
 * @param blockDevice true for a block device
 * @param sizeBytes   usable size: the requested size for files, the capacity for devices
 * @param created     the guard created (and filled) the file
 * @param writable    the guard allows writing to it: the workload writes and the target holds no data, or the user
 *                    passed --allow-destroy-data; engines open the target for writing only when this is true
 * @param notes       what the guard did or noticed (e.g. "using the first 1 GiB of a 2 GiB file")
 */
public record PreparedTarget(
        Path path, boolean blockDevice, long sizeBytes, boolean created, boolean writable, List<String> notes) {
    public PreparedTarget {
        notes = List.copyOf(notes);
    }
}
