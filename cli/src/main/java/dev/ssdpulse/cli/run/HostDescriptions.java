package dev.ssdpulse.cli.run;

import com.sun.management.OperatingSystemMXBean;
import dev.ssdpulse.schemas.avro.HostDescription;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** The benchmarking host as far as the JVM and /proc tell; a missing fact is null, never an error. */
public final class HostDescriptions {
    private HostDescriptions() {}

    public static HostDescription current(String ioEngine, boolean directIo, String ioScheduler) {
        return HostDescription.newBuilder()
                .setHostname(hostname())
                .setKernel(System.getProperty("os.name") + " " + System.getProperty("os.version"))
                .setIoScheduler(ioScheduler)
                .setDirectIo(directIo)
                .setIoEngine(ioEngine)
                .setCpuModel(cpuModel())
                .setCpuCount(Runtime.getRuntime().availableProcessors())
                .setMemoryBytes(memoryBytes())
                .setJavaVersion(System.getProperty("java.version"))
                .build();
    }

    /** ssdpulse's version from the jar manifest; "development" when run from classes. */
    public static String toolVersion() {
        String v = HostDescriptions.class.getPackage().getImplementationVersion();
        return v == null ? "development" : v;
    }

    private static String hostname() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        return readFirstLine(Path.of("/etc/hostname"));
    }

    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    private static Long memoryBytes() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof OperatingSystemMXBean sun) {
            return sun.getTotalMemorySize();
        }
        return null;
    }

    private static String readFirstLine(Path path) {
        try {
            return Files.readAllLines(path).stream()
                    .findFirst()
                    .map(String::trim)
                    .orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
