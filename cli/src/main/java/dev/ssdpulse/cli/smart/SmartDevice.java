package dev.ssdpulse.cli.smart;

import dev.ssdpulse.cli.command.UserInputException;
import dev.ssdpulse.producer.device.guard.TargetGuard;
import dev.ssdpulse.producer.device.hostinfo.HostFacts;
import dev.ssdpulse.producer.device.hostinfo.HostFactsCollector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The drive whose SMART counters belong to a target: the one given with --smart-device, else the target itself
 * when it is a block device, else the whole disk under a file target (/dev/ + the kernel's name of the disk holding
 * its file system). A file on a file system with no single disk under it (tmpfs, overlay, LVM or md devices) has
 * no such drive: the reason says so and names --smart-device.
 */
public final class SmartDevice {
    private SmartDevice() {}

    /**
     * @param target   the target (file or block device)
     * @param explicit --smart-device, or null
     * @return the drive, or null when there is none ({@link #whyNone} says why)
     * @throws UserInputException when --smart-device names nothing
     */
    public static Path of(Path target, Path explicit) {
        checkExplicit(explicit);
        boolean device;
        try {
            device = TargetGuard.isBlockDevice(target);
        } catch (IOException e) {
            return explicit;
        }
        return of(
                target,
                device,
                device
                        ? null
                        : new HostFactsCollector().collect(target, true, "none").blockDevice(),
                explicit);
    }

    /**
     * The same with what the caller already knows of the target.
     *
     * @param targetIsBlockDevice whether the target is a block device
     * @param disk                the kernel name of the disk under a file target (HostFacts.blockDevice()), or null
     */
    public static Path of(Path target, boolean targetIsBlockDevice, String disk, Path explicit) {
        checkExplicit(explicit);
        if (explicit != null) {
            return explicit;
        }
        if (targetIsBlockDevice) {
            return target;
        }
        return disk == null ? null : Path.of("/dev", disk);
    }

    /** @throws UserInputException when --smart-device is given and names nothing */
    public static void checkExplicit(Path explicit) {
        if (explicit != null && !Files.exists(explicit)) {
            throw new UserInputException("--smart-device " + explicit + ": no such device");
        }
    }

    /** Why {@link #of} found no drive for {@code target}. */
    public static String whyNone(Path target) {
        HostFacts facts = new HostFactsCollector().collect(target, true, "none");
        String why = facts.unavailable().getOrDefault("blockDevice", "no block device under " + target);
        return why + "; name the drive with --smart-device";
    }
}
