package dev.ssdpulse.producer.device.hostinfo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Sets a disk's I/O scheduler for a run and puts the previous one back afterwards (seed 002 compares the kernel's
 * schedulers on one device). The kernel's interface is {@code /sys/block/DISK/queue/scheduler}: reading it lists
 * the schedulers available for that disk with the active one in brackets ({@code [none] mq-deadline kyber bfq});
 * writing a name there switches the disk's queue (blk-mq names since Linux 5.0: none, mq-deadline, bfq, kyber).
 *
 * <p>Refusals are explicit and happen before any I/O: a name the disk does not list (e.g. bfq without its module:
 * {@code modprobe bfq}), a disk without a scheduler file (a partition's or a virtual device's), or a sysfs the
 * process cannot write (not root, or a container with /sys mounted read-only). {@link #close()} restores the
 * previous scheduler and is idempotent; a restore that fails is reported, not thrown, so the run's summary is never
 * lost to it.
 */
public final class IoSchedulerSwitch implements AutoCloseable {
    private final Path schedulerFile;
    private final String disk;
    private final String previous;
    private final String active;
    private boolean restored;

    private IoSchedulerSwitch(Path schedulerFile, String disk, String previous, String active) {
        this.schedulerFile = schedulerFile;
        this.disk = disk;
        this.previous = previous;
        this.active = active;
    }

    /** The active scheduler in a {@code queue/scheduler} line ("none" alone may come without brackets). */
    public static String activeIn(String line) {
        String t = line.trim();
        int open = t.indexOf('[');
        int close = t.indexOf(']', open + 1);
        return open >= 0 && close > open ? t.substring(open + 1, close) : t.split("\\s+")[0];
    }

    /** Every scheduler a {@code queue/scheduler} line offers, brackets removed. */
    public static List<String> availableIn(String line) {
        List<String> names = new ArrayList<>();
        for (String n : line.trim().split("\\s+")) {
            if (!n.isEmpty()) {
                names.add(n.replace("[", "").replace("]", ""));
            }
        }
        return names;
    }

    /**
     * Switches {@code disk}'s scheduler to {@code name}.
     *
     * @param sysRoot normally {@code /sys}
     * @param disk    kernel name of the whole disk (vda, nvme0n1, loop0)
     * @throws IllegalArgumentException with the reason when the scheduler cannot be set
     */
    public static IoSchedulerSwitch set(Path sysRoot, String disk, String name) {
        if (disk == null) {
            throw new IllegalArgumentException("--scheduler " + name + ": the target's block device is unknown, so its"
                    + " I/O scheduler cannot be set (a file on tmpfs or overlay has none)");
        }
        Path file = sysRoot.resolve("block").resolve(disk).resolve("queue/scheduler");
        String line;
        try {
            line = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "--scheduler " + name + ": cannot read " + file + " (" + e + "); " + disk
                            + " may have no I/O scheduler",
                    e);
        }
        String previous = activeIn(line);
        List<String> available = availableIn(line);
        if (!available.contains(name)) {
            throw new IllegalArgumentException("--scheduler " + name + ": not available for " + disk + " (the kernel"
                    + " offers: " + String.join(", ", available)
                    + (name.equals("bfq") || name.equals("kyber")
                            ? "; its module may need loading: modprobe "
                                    + (name.equals("bfq") ? "bfq" : "kyber-iosched")
                            : "")
                    + ")");
        }
        IoSchedulerSwitch s = new IoSchedulerSwitch(file, disk, previous, name);
        if (!name.equals(previous)) {
            try {
                Files.writeString(file, name);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        "--scheduler " + name + ": cannot write " + file + " (" + e
                                + "); setting a scheduler needs root and a writable /sys (containers usually mount it"
                                + " read-only)",
                        e);
            }
            String now;
            try {
                now = activeIn(Files.readString(file));
            } catch (IOException e) {
                now = null;
            }
            if (!name.equals(now)) {
                s.close();
                throw new IllegalArgumentException(
                        "--scheduler " + name + ": the kernel accepted the write but " + disk + " runs '" + now + "'");
            }
        }
        return s;
    }

    public String disk() {
        return disk;
    }

    /** The scheduler before the switch (restored by {@link #close()}). */
    public String previous() {
        return previous;
    }

    /** The scheduler during the run. */
    public String active() {
        return active;
    }

    /**
     * Puts the previous scheduler back.
     *
     * @return null when restored (or nothing to restore), else what went wrong (for a notice)
     */
    public String restore() {
        if (restored) {
            return null;
        }
        restored = true;
        if (previous.equals(active)) {
            return null;
        }
        try {
            Files.writeString(schedulerFile, previous);
            return null;
        } catch (IOException e) {
            return "could not restore the I/O scheduler of " + disk + " to " + previous + " (" + e + "): run `echo "
                    + previous + " > " + schedulerFile + "`";
        }
    }

    @Override
    public void close() {
        restore();
    }
}
