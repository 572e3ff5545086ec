package dev.ssdpulse.producer.device.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real block device for tests: a loop device over an image file (needs root and a working losetup; the test is
 * aborted, not failed, where either is missing). Detached on close.
 */
public final class LoopDevice implements AutoCloseable {
    private final Path device;

    private LoopDevice(Path device) {
        this.device = device;
    }

    /** Writes {@code image} to {@code imageFile} and attaches it ({@code partScan}: losetup -P). */
    public static LoopDevice attach(Path imageFile, byte[] image, boolean partScan) throws Exception {
        Files.write(imageFile, image);
        List<String> cmd = new ArrayList<>(List.of("losetup", "-f", "--show"));
        if (partScan) {
            cmd.add("-P");
        }
        cmd.add(imageFile.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("losetup not available: " + e.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "losetup failed: " + out);
        return new LoopDevice(Path.of(out));
    }

    /** Attaches an existing image file (left as it is). */
    public static LoopDevice attachExisting(Path imageFile) throws Exception {
        Process p;
        try {
            p = new ProcessBuilder("losetup", "-f", "--show", imageFile.toString())
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            Assumptions.abort("losetup not available: " + e.getMessage());
            return null;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "losetup failed: " + out);
        return new LoopDevice(Path.of(out));
    }

    public Path path() {
        return device;
    }

    /**
     * A second block-device node for this loop device at {@code node} (mknod), owned by {@code uid}: for tests of
     * owner checks that must not change the system's own node. Aborts the test where mknod is refused.
     */
    public Path nodeOwnedBy(Path node, int uid) throws Exception {
        String[] majorMinor = Files.readString(
                        Path.of("/sys/class/block", device.getFileName().toString(), "dev"))
                .trim()
                .split(":");
        Process p = new ProcessBuilder("mknod", node.toString(), "b", majorMinor[0], majorMinor[1])
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        Assumptions.assumeTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "mknod failed: " + out);
        Files.setAttribute(node, "unix:uid", uid);
        return node;
    }

    @Override
    public void close() throws Exception {
        new ProcessBuilder("losetup", "-d", device.toString()).start().waitFor(10, TimeUnit.SECONDS);
    }
}
